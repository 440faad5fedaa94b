namespace CacheSerializer.Transcoding.Codecs;

/// <summary>bool: one byte, 1 for true and 0 for false, DefaultTranscoder's layout under 0x0103.</summary>
/// <remarks><see cref="BitConverter"/> never writes another value, so any other byte is a malformed item.</remarks>
internal sealed class BooleanCodec : FixedSizeCodec<bool>
{
    public static readonly BooleanCodec Instance = new();

    private BooleanCodec()
        : base(TranscoderFlags.Boolean, 1)
    {
    }

    protected override void Encode(Span<byte> destination, bool value) => destination[0] = value ? (byte)1 : (byte)0;

    protected override bool Decode(ReadOnlySpan<byte> source) => source[0] switch
    {
        0 => false,
        1 => true,
        _ => ThrowHelper.ThrowMalformed<bool>(Flags, typeof(bool), $"a bool is stored as 0 or 1, not {source[0]}"),
    };
}
