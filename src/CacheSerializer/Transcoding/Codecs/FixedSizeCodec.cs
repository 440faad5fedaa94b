namespace CacheSerializer.Transcoding.Codecs;

/// <summary>
/// A codec whose payload always has the same length, <typeparamref name="TLayout"/>'s <see cref="IFixedSizeLayout{T}.Size"/>;
/// any other length is a malformed item. Never compressed: a few bytes never shrink, and skipping the attempt saves the work.
/// </summary>
/// <remarks>
/// One class for every fixed-size type: the flag is the constructor's, the bytes are the layout's. The layout is a struct
/// (the constraint says so), so the runtime compiles this class once per layout and its static calls are direct and
/// inlinable on the hot path: no virtual call, no box.
/// </remarks>
internal sealed class FixedSizeCodec<T, TLayout> : Codec<T>
    where TLayout : struct, IFixedSizeLayout<T>
{
    public FixedSizeCodec(uint flags)
        : base(flags)
    {
    }

    public override bool Compressible => false;

    public override ArraySegment<byte> WriteValue(T value)
    {
        byte[] buffer = new byte[TLayout.Size];
        TLayout.Write(buffer, value);
        return new ArraySegment<byte>(buffer);
    }

    public override T ReadValue(ReadOnlySpan<byte> payload)
    {
        if (payload.Length != TLayout.Size)
        {
            ThrowHelper.ThrowWrongLength(Flags, typeof(T), TLayout.Size, payload.Length);
        }

        return TLayout.Read(payload);
    }
}
