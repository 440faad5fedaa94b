using Google.Protobuf;
using static Google.Protobuf.WireFormat;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>Writes and reads one value of <typeparamref name="T"/> in one protobuf wire type (the tag is the caller's).</summary>
/// <remarks>Codecs are immutable after the compiler finishes them and are shared by every thread using the model.</remarks>
internal abstract class ValueCodec<T>
{
    /// <summary>Gets the wire type of one value.</summary>
    public abstract WireType WireType { get; }

    /// <summary>Gets a value indicating whether a repeated field of this codec may be packed (numeric scalars only).</summary>
    public virtual bool IsPackable => false;

    /// <summary>Gets the value a map key takes when its field is absent (Google skips default keys).</summary>
    public virtual T MissingMapKey => default!;

    /// <summary>Returns whether a member holding <paramref name="value"/> is skipped, as protobuf-net skips zero values.</summary>
    public abstract bool IsDefault(T value);

    /// <summary>Returns the encoded size of the value without its tag; <paramref name="depth"/> is the nesting of the enclosing message.</summary>
    public abstract int Measure(T value, int depth);

    /// <summary>Writes the value without its tag.</summary>
    public abstract void Write(ref WriteContext ctx, T value);

    /// <summary>Reads one value whose tag has been read; message codecs merge into <paramref name="existing"/>.</summary>
    public abstract T Read(ref ParseContext ctx, T existing);
}
