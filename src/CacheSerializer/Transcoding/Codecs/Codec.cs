namespace CacheSerializer.Transcoding.Codecs;

/// <summary>A codec for exactly one type: writes and reads it without boxing when the caller knows <typeparamref name="T"/>.</summary>
internal abstract class Codec<T> : IValueWriter, IValueReader
{
    protected Codec(uint flags) => Flags = flags;

    public uint Flags { get; }

    public virtual bool Compressible => true;

    public abstract ArraySegment<byte> WriteValue(T value);

    public abstract T ReadValue(ReadOnlySpan<byte> payload);

    // An enum value arrives boxed as the enum; the runtime unboxes it as its underlying type, so an enum is written by
    // the codec of its underlying type and DefaultTranscoder reads it as that integer.
    ArraySegment<byte> IValueWriter.Write(object value) => WriteValue((T)value);

    object? IValueReader.Read(ReadOnlyMemory<byte> payload, Type? expected) => ReadValue(payload.Span);
}
