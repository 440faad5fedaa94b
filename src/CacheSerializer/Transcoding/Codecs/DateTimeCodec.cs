using System.Buffers.Binary;

namespace CacheSerializer.Transcoding.Codecs;

/// <summary>DateTime: <see cref="DateTime.ToBinary"/> as 8 bytes little-endian, DefaultTranscoder's layout under 0x0110. The Kind is kept; a Local value is stored as its instant and read back in the reader's time zone.</summary>
internal sealed class DateTimeCodec : FixedSizeCodec<DateTime>
{
    public static readonly DateTimeCodec Instance = new();

    private DateTimeCodec()
        : base(TranscoderFlags.DateTime, 8)
    {
    }

    protected override void Encode(Span<byte> destination, DateTime value) => BinaryPrimitives.WriteInt64LittleEndian(destination, value.ToBinary());

    protected override DateTime Decode(ReadOnlySpan<byte> source) => System.DateTime.FromBinary(BinaryPrimitives.ReadInt64LittleEndian(source));
}
