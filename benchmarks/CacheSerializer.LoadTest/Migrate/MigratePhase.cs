namespace CacheSerializer.LoadTest.Migrate;

/// <summary>Where a migration is when an operation starts; a read counts in the phase it started in.</summary>
internal enum MigratePhase
{
    /// <summary>The load's first moments, every web server old: the cache starts full, so its misses are not yet those
    /// of the steady state; checked like every phase, but its hit rate is compared with nothing.</summary>
    WarmUp,

    /// <summary>Every web server runs the old application (EnyimMemcachedCore, emulated).</summary>
    Before,

    /// <summary>From the first web server's switch to this package until the last one's: old and new servers share the cache.</summary>
    Switch,

    /// <summary>Every web server runs this package, in the migration phase (objects still written as BSON on the Enyim-shaped path).</summary>
    After,

    /// <summary>The second step, under way: the web servers are restarted one by one with object writes flipped to protobuf.</summary>
    Flip,

    /// <summary>Every web server runs this package with object writes flipped to protobuf: the steady state after the migration.</summary>
    SecondStep,
}
