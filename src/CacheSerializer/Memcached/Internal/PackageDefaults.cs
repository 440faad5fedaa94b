namespace CacheSerializer.Memcached.Internal;

/// <summary>The one place where "the package default" of an option is resolved.</summary>
internal static class PackageDefaults
{
    /// <summary>Creates the transcoder used when <see cref="MemcachedClientOptions.Transcoder"/> is left null.</summary>
    /// <remarks>Switched to the package's protobuf transcoder when it is merged; until then the raw transcoder.</remarks>
    internal static ITranscoder CreateTranscoder() => new RawTranscoder();
}
