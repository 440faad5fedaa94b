namespace CacheSerializer.Transcoding.Codecs.Primitive;

/// <summary>
/// null: flag 0x0102 (DefaultTranscoder's TypeCode.DBNull marker) with an empty payload; DefaultTranscoder reads it as
/// null too. A payload under this flag is a malformed item.
/// </summary>
internal sealed class NullCodec : IValueReader
{
    public static readonly NullCodec Instance = new();

    public static readonly ArraySegment<byte> Payload = new([]);

    private NullCodec()
    {
    }

    public uint Flags => TranscoderFlags.Null;

    public bool Compressible => false;

    public object? Read(ReadOnlyMemory<byte> payload, Type? expected)
    {
        if (payload.Length != 0)
        {
            ThrowHelper.ThrowWrongLength(Flags, expected, 0, payload.Length);
        }

        return null;
    }
}
