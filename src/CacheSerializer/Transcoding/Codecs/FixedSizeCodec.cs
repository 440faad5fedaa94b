namespace CacheSerializer.Transcoding.Codecs;

/// <summary>A codec whose payload always has the same length; any other length is a malformed item.</summary>
internal abstract class FixedSizeCodec<T> : Codec<T>
{
    protected FixedSizeCodec(uint flags, int size)
        : base(flags) => Size = size;

    public int Size { get; }

    // A few bytes never shrink under compression; skipping the attempt saves the work.
    public override bool Compressible => false;

    public sealed override ArraySegment<byte> WriteValue(T value)
    {
        byte[] buffer = new byte[Size];
        Encode(buffer, value);
        return new ArraySegment<byte>(buffer);
    }

    public sealed override T ReadValue(ReadOnlySpan<byte> payload)
    {
        if (payload.Length != Size)
        {
            ThrowHelper.ThrowWrongLength(Flags, typeof(T), Size, payload.Length);
        }

        return Decode(payload);
    }

    protected abstract void Encode(Span<byte> destination, T value);

    protected abstract T Decode(ReadOnlySpan<byte> source);
}
