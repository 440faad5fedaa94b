namespace CacheSerializer.LoadTest.Deploy;

/// <summary>Where a rolling deploy is when a read starts.</summary>
internal enum DeployPhase
{
    /// <summary>Every web server runs build 1.</summary>
    Before,

    /// <summary>From the first web server's switch to build 2 until the last one's: both builds serve.</summary>
    During,

    /// <summary>Every web server runs build 2.</summary>
    After,
}
