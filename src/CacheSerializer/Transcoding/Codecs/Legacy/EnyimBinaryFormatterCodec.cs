namespace CacheSerializer.Transcoding.Codecs.Legacy;

/// <summary>
/// EnyimMemcachedCore BinaryFormatterTranscoder's objects: a BinaryFormatter stream under flag 0x0101, its
/// <c>SerializeObject</c> being <c>new BinaryFormatter().Serialize</c> into a MemoryStream (cnblogs/EnyimMemcachedCore at
/// e383c4c7, src/Enyim.Caching/Memcached/Transcoders/BinaryFormatterTranscoder.cs). Written and read only for the types of
/// <see cref="ProtobufTranscoderOptions.BinaryFormatterFallbackTypes"/>, through the same allowlist binder as the
/// fallback: a type the stream names that is not listed is refused before anything of it is created.
/// </summary>
internal sealed class EnyimBinaryFormatterCodec : EnyimObjectCodec
{
    private readonly BinaryFormatterCodec _streams;

    public EnyimBinaryFormatterCodec(IEnumerable<Type> allowed) => _streams = new BinaryFormatterCodec(allowed, TranscoderFlags.EnyimObject);

    public override string TranscoderName => "BinaryFormatterTranscoder";

    /// <summary>A value BinaryFormatterTranscoder writes as an object is written here only when its type is listed.</summary>
    public override TranscoderException? Refusal(Type type) =>
        _streams.Allows(type)
            ? null
            : new TranscoderException(
                $"Cannot store a {type} as EnyimMemcachedCore's BinaryFormatterTranscoder writes it (flags 0x0101, the migration phase): it is not in "
                + "ProtobufTranscoderOptions.BinaryFormatterFallbackTypes, the types BinaryFormatter streams are written and read for. Add it there "
                + "if it is safe to read back, or set ProtobufTranscoder:ObjectFormat to Protobuf once no EnyimMemcachedCore application shares "
                + "the cache (docs/migrating-from-enyim.md).",
                TranscoderErrorKind.Unstorable,
                null,
                type);

    public override ArraySegment<byte> Write(object value) => _streams.Write(value);

    public override object? Read(ReadOnlyMemory<byte> payload, Type? expected) => _streams.Read(payload, expected);
}
