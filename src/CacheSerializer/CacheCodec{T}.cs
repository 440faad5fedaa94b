using System.Buffers;
using System.Runtime.InteropServices;

namespace CacheSerializer;

/// <summary>An application's own codec for <typeparamref name="T"/>: writes a value's bytes and reads them back.</summary>
/// <typeparam name="T">The exact type the codec handles (not its subtypes).</typeparam>
/// <example>
/// <code>
/// sealed class PointCodec() : CacheCodec&lt;Point&gt;(0xC620)
/// {
///     public override void Write(Point value, IBufferWriter&lt;byte&gt; output) { ... }
///     public override Point Read(ReadOnlySpan&lt;byte&gt; payload) { ... }
/// }
/// </code>
/// </example>
public abstract class CacheCodec<T> : CacheCodec
    where T : notnull
{
    /// <summary>Creates a codec storing its items under <paramref name="flags"/>.</summary>
    /// <param name="flags">The codec's flag, in 0xC620-0xC67F (<see cref="CacheCodec.FirstFlag"/>-<see cref="CacheCodec.LastFlag"/>).</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="flags"/> is outside the application range.</exception>
    [System.Diagnostics.CodeAnalysis.SuppressMessage("ApiDesign", "RS0022:Constructor make noninheritable base class inheritable",
        Justification = "By design: applications derive from CacheCodec<T>, never from CacheCodec (private protected constructor). CacheCodec has no protected members to expose, and its internal abstract ones are sealed here.")]
    protected CacheCodec(uint flags)
        : base(flags)
    {
    }

    /// <inheritdoc/>
    public sealed override Type Type => typeof(T);

    /// <summary>Writes the bytes of <paramref name="value"/>.</summary>
    /// <param name="value">The value, never null (the transcoder stores null itself).</param>
    /// <param name="output">Where the bytes go.</param>
    public abstract void Write(T value, IBufferWriter<byte> output);

    /// <summary>Reads a value back from the bytes <see cref="Write"/> wrote.</summary>
    /// <param name="payload">The bytes, already decompressed. Any exception thrown here reaches the caller as a <see cref="TranscoderException"/>.</param>
    /// <returns>The value.</returns>
    public abstract T Read(ReadOnlySpan<byte> payload);

    internal sealed override ArraySegment<byte> WriteObject(object value)
    {
        var output = new ArrayBufferWriter<byte>();
        Write((T)value, output);
        // The written bytes are a prefix of the writer's own array: handed on as they are, not copied.
        return MemoryMarshal.TryGetArray(output.WrittenMemory, out ArraySegment<byte> written) ? written : new ArraySegment<byte>(output.WrittenSpan.ToArray());
    }

    internal sealed override object? ReadObject(ReadOnlySpan<byte> payload) => Read(payload);
}
