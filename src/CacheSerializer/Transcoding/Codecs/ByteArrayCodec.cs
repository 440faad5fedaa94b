namespace CacheSerializer.Transcoding.Codecs;

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
