namespace CacheSerializer.Transcoding.Codecs;

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
