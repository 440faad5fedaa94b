namespace CacheSerializer.LoadTest.Mix;

/// <summary>Which mix of values a run stores (docs/loadtest.md, "The mix" and "The seed profile").</summary>
internal enum LoadProfile
{
    /// <summary>Mostly small objects by count, a tail of large folder trees that holds most of the bytes (items of 1 KB to 1.3 MB).</summary>
    Default = 0,

    /// <summary>
    /// The production report's shape: only large trees of realistic objects, whose BinaryFormatter + Deflate items average
    /// about 1 MB (the report's "from 1 MB to 200 KB").
    /// </summary>
    Seed = 1,
}
