namespace CacheSerializer.Transcoding.Codecs.Primitive;

/// <summary>
/// byte[]: the bytes as they are, DefaultTranscoder's RawDataFlag 0xFA52. Writing does not copy (the item shares the
/// caller's array, as DefaultTranscoder does); reading always copies, since the client may reuse its receive buffer.
/// </summary>
internal sealed class ByteArrayCodec : Codec<byte[]>
{
    public static readonly ByteArrayCodec Instance = new();

    private ByteArrayCodec()
        : base(TranscoderFlags.RawBytes)
    {
    }

    public override ArraySegment<byte> WriteValue(byte[] value) => new(value);

    public override byte[] ReadValue(ReadOnlySpan<byte> payload) => payload.ToArray();
}

/// <summary>
/// ArraySegment&lt;byte&gt;: the segment's bytes as they are under 0xFA52, like byte[]; an item under 0xFA52 reads back
/// as byte[] (non-generic) or as a segment over a copy (Deserialize&lt;ArraySegment&lt;byte&gt;&gt;).
/// </summary>
internal sealed class ByteSegmentCodec : Codec<ArraySegment<byte>>
{
    public static readonly ByteSegmentCodec Instance = new();

    private ByteSegmentCodec()
        : base(TranscoderFlags.RawBytes)
    {
    }

    // default(ArraySegment<byte>) has no array: stored as an empty payload.
    public override ArraySegment<byte> WriteValue(ArraySegment<byte> value) => value.Array is null ? new ArraySegment<byte>([]) : value;

    public override ArraySegment<byte> ReadValue(ReadOnlySpan<byte> payload) => new(payload.ToArray());
}
