namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>Where a read's value came from, as the value's instance tells it (<see cref="Models.IHybridRow"/>).</summary>
internal enum HybridReadSource
{
    /// <summary>The read's own factory ran: a miss.</summary>
    Factory,

    /// <summary>An instance handed out before on this web server: its L1 (or an in-flight call's value handed to several
    /// callers, after the first).</summary>
    L1,

    /// <summary>An instance another caller's factory on this web server made, handed out for the first time: the
    /// in-process single flight.</summary>
    SharedCall,

    /// <summary>A deserialized instance, handed out for the first time: L2.</summary>
    L2,
}
