namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>The phases every contender of the hybrid scenario goes through, in this order, each reported on its own.</summary>
internal enum HybridPhase
{
    /// <summary>A row updated and its key removed (<c>RemoveAsync</c> on a random web server) every
    /// <see cref="HybridSettings.UpdateEvery"/>.</summary>
    Steady,

    /// <summary>Reads of keys created with a tag each; every <see cref="HybridSettings.TagEvery"/> the rows of a random tag
    /// updated and the tag removed (<c>RemoveByTagAsync</c> on a random web server).</summary>
    Tags,

    /// <summary>The steady workload while the contender's L2 server (memcached, or redis-server) is frozen (SIGSTOP) for
    /// <see cref="HybridSettings.OutageFor"/>, then let run again.</summary>
    Outage,

    /// <summary>The steady workload while the web servers are replaced one by one by a build whose cached type's contract
    /// changed.</summary>
    Deploy,
}
