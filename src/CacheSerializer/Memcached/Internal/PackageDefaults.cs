namespace CacheSerializer.Memcached.Internal;

/// <summary>
/// The one place where "the package default" of an option is resolved, and the one place the value size limit is mapped
/// between the client and the transcoder: both call it <c>MaxValueSize</c>, the client's setting is the one that counts.
/// </summary>
internal static class PackageDefaults
{
    /// <summary>
    /// Returns the transcoder the client uses: the configured one, or the package's own with the client's limit, so that
    /// a value too large is refused at Serialize, naming its type, before anything is sent.
    /// </summary>
    /// <exception cref="MemcachedConfigurationException">The configured transcoder is a <see cref="ProtobufTranscoder"/> with
    /// another limit than the client's: one of the two would silently win.</exception>
    internal static ITranscoder Transcoder(ITranscoder? configured, int maxValueSize)
    {
        if (configured is ProtobufTranscoder own && own.MaxValueSize != maxValueSize)
        {
            ThrowHelper.ThrowInvalidClientOption(
                nameof(MemcachedClientOptions.Transcoder),
                $"is a ProtobufTranscoder with ProtobufTranscoderOptions.MaxValueSize {own.MaxValueSize}, but MemcachedClientOptions.MaxValueSize is "
                + $"{maxValueSize}; set both to the same value (memcached's -I item size limit)");
        }

        return configured ?? CreateTranscoder(maxValueSize);
    }

    /// <summary>Creates the package's transcoder with the client's limit, from options configured by the caller (a configuration section).</summary>
    /// <exception cref="MemcachedConfigurationException">The caller's options set another limit than the client's.</exception>
    internal static ProtobufTranscoder CreateTranscoder(int maxValueSize, Action<ProtobufTranscoderOptions>? configure = null)
    {
        var options = new ProtobufTranscoderOptions { MaxValueSize = maxValueSize };
        configure?.Invoke(options);
        if (options.MaxValueSize != maxValueSize)
        {
            ThrowHelper.ThrowInvalidClientOption(
                nameof(MemcachedClientOptions.MaxValueSize),
                $"is {maxValueSize}, but the transcoder's section sets MaxValueSize {options.MaxValueSize}; set the limit once, as the client's MaxValueSize");
        }

        return new ProtobufTranscoder(options);
    }
}
