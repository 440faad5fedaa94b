namespace CacheSerializer.LoadTest.Migrate;

/// <summary>How the new web servers of a migration are configured: what the scenario compares.</summary>
internal enum MigratePath
{
    /// <summary>Bound from the old servers' own <c>"enyimMemcached"</c> section: EnyimMemcachedCore's key placement and,
    /// until the second step, objects written as its DefaultTranscoder writes them (BSON). The path to take.</summary>
    Enyim,

    /// <summary>The contrast: bound from a section of this package's own shape (<c>"Memcached"</c>), with its defaults:
    /// ketama placement and objects written as protobuf from the first switch. What the Enyim-shaped path avoids.</summary>
    Ketama,
}
