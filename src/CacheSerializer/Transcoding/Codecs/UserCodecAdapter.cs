namespace CacheSerializer.Transcoding.Codecs;

/// <summary>Runs an application's <see cref="CacheCodec"/> as a codec of the chain, under the flag it chose.</summary>
internal sealed class UserCodecAdapter : IValueWriter, IValueReader
{
    private readonly CacheCodec _codec;

    public UserCodecAdapter(CacheCodec codec) => _codec = codec;

    public uint Flags => _codec.Flags;

    public bool Compressible => true;

    public Type Type => _codec.Type;

    public ArraySegment<byte> Write(object value) => _codec.WriteObject(value);

    public object? Read(ReadOnlyMemory<byte> payload, Type? expected) => _codec.ReadObject(payload.Span);
}
