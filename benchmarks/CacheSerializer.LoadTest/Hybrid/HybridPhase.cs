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

    /// <summary>Not in the default set, and last when chosen: on servers of its own (3 memcached nodes with little memory,
    /// or a redis-server and its replica), the tagged keys read while rows are removed by key and by tag, through steps
    /// each reported on its own: memory pressure (with the package's own records deleted), a freeze then a kill and
    /// restart of each server in turn, and a web server restarted in the middle of an outage.</summary>
    Faults,
}
