namespace CacheSerializer.Transcoding.Codecs.Legacy;

/// <summary>
/// The objects of the EnyimMemcachedCore transcoder an application names in its section's <c>Transcoder</c> setting, under
/// flag 0x0101: every value its <c>DefaultTranscoder.Serialize</c> does not write as a primitive (TypeCode.Object, and
/// decimal, which falls through to <c>SerializeObject</c>; cnblogs/EnyimMemcachedCore at e383c4c7,
/// src/Enyim.Caching/Memcached/Transcoders/DefaultTranscoder.cs). Its transcoders share every flag and primitive and differ
/// only in <c>SerializeObject</c>/<c>DeserializeObject</c>, so one transcoder's 0x0101 bytes mean nothing to another's:
/// the application's setting, not the item, says which of these reads them.
/// </summary>
/// <remarks>
/// DefaultTranscoder's BSON (<see cref="EnyimBsonCodec"/>) and BinaryFormatterTranscoder's streams
/// (<see cref="EnyimBinaryFormatterCodec"/>) are the core's; MessagePackTranscoder's come from the compatibility package
/// (CacheSerializer.Enyim), the one place MessagePack is referenced, through
/// <see cref="ProtobufTranscoderOptions.EnyimObjects"/>. The migration phase writes through the codec
/// (<see cref="TranscoderObjectFormat.EnyimBson"/>); after the flip it still reads the items it finds under 0x0101 until
/// they expire.
/// </remarks>
internal abstract class EnyimObjectCodec : IValueWriter, IValueReader
{
    /// <summary>Gets the flags the codec's payloads are stored under: 0x0101 (its older BSON decimals: 0x010F).</summary>
    public virtual uint Flags => TranscoderFlags.EnyimObject;

    /// <summary>Gets <see langword="false"/>: EnyimMemcachedCore reads no compression bit, so a shared flag is never compressed.</summary>
    public bool Compressible => false;

    /// <summary>Gets the EnyimMemcachedCore transcoder whose objects these are, as messages name it.</summary>
    public abstract string TranscoderName { get; }

    /// <summary>
    /// Returns why EnyimMemcachedCore's transcoder cannot store a <paramref name="type"/> that is no DefaultTranscoder
    /// primitive (its Serialize throws, so its applications never cached one), or <see langword="null"/> when this codec
    /// writes it as that transcoder does.
    /// </summary>
    public abstract TranscoderException? Refusal(Type type);

    /// <inheritdoc/>
    public abstract ArraySegment<byte> Write(object value);

    /// <inheritdoc/>
    public abstract object? Read(ReadOnlyMemory<byte> payload, Type? expected);
}
