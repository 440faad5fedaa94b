namespace CacheSerializer.Tests.Memcached.Fixtures;

/// <summary>How long the client tests wait for what must happen before they call the client stuck: bounds that only say
/// "not stuck", far above the expected time (which is well under a second on a quiet machine), so a loaded machine's
/// scheduling never reaches them (docs/contributing.md, "Repeated runs": wall-clock bounds).</summary>
/// <remarks>A wait that must also beat a configured timeout (a call failed by a dispose, not by its 30 s operation
/// timeout) says so with the timeout itself (<c>timeout / 2</c>), so a change here cannot loosen it. One relation is
/// kept here instead: the GetOrCreate tests give their waiters a one-minute <c>LockTimeout</c>, and their bounded waits
/// also tell a prompt answer from a wait for the lock, so <see cref="NotStuck"/> stays at half a minute or less.</remarks>
public static class Bound
{
    /// <summary>One thing happening: a call completing or failing, a server marked down or back in use, a connection
    /// closed, a condition polled by <see cref="Poll.UntilAsync(Func{bool}, string)"/>. 30 s.</summary>
    public static readonly TimeSpan NotStuck = TimeSpan.FromSeconds(30);

    /// <summary>A burst: thousands of calls, or hundreds of megabytes, through the client and a memcached on a loaded
    /// 2-core machine, which takes longer the busier the machine (the tiny-pool test's 2,000 callers took 13 s under load,
    /// 2 s on a quiet machine). 60 s.</summary>
    public static readonly TimeSpan Burst = TimeSpan.FromSeconds(60);
}
