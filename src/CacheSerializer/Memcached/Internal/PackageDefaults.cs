namespace CacheSerializer.Memcached.Internal;

/// <summary>The one place where "the package default" of an option is resolved.</summary>
internal static class PackageDefaults
{
    /// <summary>Creates the transcoder used when <see cref="MemcachedClientOptions.Transcoder"/> is left null: the package's own.</summary>
    /// <param name="maxValueSize">The client's value limit, so that the transcoder refuses a value too large at Serialize,
    /// naming its type, before anything is sent.</param>
    internal static ITranscoder CreateTranscoder(int maxValueSize) =>
        new ProtobufTranscoder(new ProtobufTranscoderOptions { MaxItemSize = maxValueSize });
}
