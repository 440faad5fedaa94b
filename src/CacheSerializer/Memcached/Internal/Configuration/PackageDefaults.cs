namespace CacheSerializer.Memcached.Internal.Configuration;

/// <summary>
/// The one place where "the package default" of an option is resolved, and the one mapping of the value size limit
/// between the client and the transcoder: <see cref="MemcachedClientOptions.MaxValueSize"/> is the setting, and the
/// client's <see cref="ProtobufTranscoder"/> always runs with it, so the two can never disagree.
/// </summary>
internal static class PackageDefaults
{
    /// <summary>
    /// Returns the transcoder the client uses: the package's own with the client's limit when none is configured, a
    /// configured <see cref="ProtobufTranscoder"/> with the client's limit (sharing its contracts and caches), or any other
    /// configured transcoder as it is (the client checks sizes itself before it sends).
    /// </summary>
    internal static ITranscoder Transcoder(ITranscoder? configured, int maxValueSize) => configured switch
    {
        null => CreateTranscoder(maxValueSize),
        ProtobufTranscoder own => own.WithMaxValueSize(maxValueSize),
        _ => configured,
    };

    /// <summary>Creates the package's transcoder with the client's limit, from options the caller configured (a
    /// configuration section) or the defaults; the options' limit is set to the client's.</summary>
    internal static ProtobufTranscoder CreateTranscoder(int maxValueSize, ProtobufTranscoderOptions? options = null)
    {
        options ??= new ProtobufTranscoderOptions();
        options.MaxValueSize = maxValueSize;
        return new ProtobufTranscoder(options);
    }
}
