using System.Text;

namespace CacheSerializer.Transcoding.Codecs.Primitive;

/// <summary>
/// string: UTF-8 with no length prefix and no BOM, DefaultTranscoder's layout under 0x0112; also reads flag 0, which
/// other clients (incr/decr, plain sets) leave on text values. "" is an empty payload and comes back as "".
/// </summary>
/// <remarks>
/// Both directions are strict: a string with a lone surrogate cannot be stored faithfully in UTF-8 and is refused at
/// Serialize rather than silently replaced by U+FFFD, and invalid UTF-8 in a payload is a malformed item.
/// </remarks>
internal sealed class StringCodec : Codec<string>
{
    public static readonly StringCodec Instance = new(TranscoderFlags.String);

    /// <summary>Reads flag 0, never writes it.</summary>
    public static readonly StringCodec Legacy = new(TranscoderFlags.LegacyString);

    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    private StringCodec(uint flags)
        : base(flags)
    {
    }

    // Flag 0 belongs to other clients' plain values: a compression bit next to it would be a guess.
    public override bool Compressible => Flags != TranscoderFlags.LegacyString;

    public override ArraySegment<byte> WriteValue(string value) => new(StrictUtf8.GetBytes(value));

    public override string ReadValue(ReadOnlySpan<byte> payload) => StrictUtf8.GetString(payload);
}
