using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>Guid: 16 bytes in <see cref="Guid.TryWriteBytes(Span{byte})"/> order: the first three fields little-endian, then 8 bytes as they are (flag 0xC521).</summary>
internal sealed class GuidCodec : FixedSizeCodec<Guid>
{
    public static readonly GuidCodec Instance = new();

    private GuidCodec()
        : base(TranscoderFlags.Guid, 16)
    {
    }

    protected override void Encode(Span<byte> destination, Guid value) => _ = value.TryWriteBytes(destination);

    protected override Guid Decode(ReadOnlySpan<byte> source) => new Guid(source);
}
