using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>Reads the fields of one message whose length prefix has been consumed.</summary>
internal interface IBodyReader<T>
{
    T ReadBody(ref ParseContext ctx, T existing);
}

/// <summary>Writes the fields of one message without a length prefix.</summary>
internal interface IBodyWriter<T>
{
    void WriteBody(ref WriteContext ctx, T value);
}

/// <summary>
/// Bridges Google.Protobuf's message plumbing to our codecs. Google.Protobuf 3.25 keeps <c>PushLimit</c> and
/// <c>ParseContext.Initialize</c> internal; its public <c>ParseContext.ReadMessage(IMessage)</c> and the
/// <c>MergeFrom(ReadOnlySpan)</c> / <c>WriteTo(Span)</c> extensions do the length limit, recursion limit (100) and end-tag
/// checks, and call back into <see cref="IBufferMessage"/>. A frame is that callback: frames are reused per thread, one
/// per nesting level, so a read allocates no frame after warm-up.
/// </summary>
internal sealed class Frame<T> : IBufferMessage
{
    [ThreadStatic]
    private static Frame<T>?[]? t_pool;

    [ThreadStatic]
    private static int t_depth;

    private IBodyReader<T>? _reader;
    private IBodyWriter<T>? _writer;
    private T _value = default!;

    MessageDescriptor IMessage.Descriptor => throw new NotSupportedException();

    /// <summary>Reads a length-delimited message at the current position into <paramref name="existing"/>.</summary>
    public static T ReadMessage(ref ParseContext ctx, IBodyReader<T> reader, T existing)
    {
        var frame = Rent(out int depth);
        frame._reader = reader;
        frame._value = existing;
        try
        {
            ctx.ReadMessage(frame);
            return frame._value;
        }
        finally
        {
            Return(frame, depth);
        }
    }

    /// <summary>Reads a whole payload as one message body.</summary>
    public static T ReadRoot(ReadOnlySpan<byte> data, IBodyReader<T> reader, T existing = default!)
    {
        var frame = Rent(out int depth);
        frame._reader = reader;
        frame._value = existing;
        try
        {
            frame.MergeFrom(data);
            return frame._value;
        }
        finally
        {
            Return(frame, depth);
        }
    }

    /// <summary>Writes one message body into a span of exactly its size.</summary>
    public static void WriteRoot(Span<byte> destination, IBodyWriter<T> writer, T value)
    {
        var frame = Rent(out int depth);
        frame._writer = writer;
        frame._value = value;
        try
        {
            frame.WriteTo(destination);
        }
        finally
        {
            Return(frame, depth);
        }
    }

    private static Frame<T> Rent(out int depth)
    {
        depth = t_depth;
        var pool = t_pool ??= new Frame<T>?[4];
        if (depth == pool.Length)
        {
            Array.Resize(ref t_pool, depth * 2);
            pool = t_pool;
        }

        t_depth = depth + 1;
        return pool[depth] ??= new Frame<T>();
    }

    private static void Return(Frame<T> frame, int depth)
    {
        frame._value = default!;
        frame._reader = null;
        frame._writer = null;
        t_depth = depth;
    }

    void IBufferMessage.InternalMergeFrom(ref ParseContext ctx) => _value = _reader!.ReadBody(ref ctx, _value);

    void IBufferMessage.InternalWriteTo(ref WriteContext ctx) => _writer!.WriteBody(ref ctx, _value);

    void IMessage.MergeFrom(CodedInputStream input) => throw new NotSupportedException();

    void IMessage.WriteTo(CodedOutputStream output) => throw new NotSupportedException();

    int IMessage.CalculateSize() => throw new NotSupportedException();
}

/// <summary>Skips fields this reader does not know, by wire type, without trusting any length beyond the input.</summary>
/// <remarks>
/// <c>ParseContext</c> has no public <c>SkipLastField</c>, so this is its equivalent on the public surface: varints and
/// fixed values are read and dropped, length-delimited fields go through <c>ReadBytes</c> (which checks the length against
/// the input before allocating), and groups (our empty-collection marker among them) through <c>ReadGroup</c>.
/// </remarks>
internal sealed class FieldSkipper : IBufferMessage
{
    public static readonly FieldSkipper Instance = new();

    MessageDescriptor IMessage.Descriptor => throw new NotSupportedException();

    public static void Skip(ref ParseContext ctx, uint tag)
    {
        switch (WireFormat.GetTagWireType(tag))
        {
            case WireFormat.WireType.Varint:
                ctx.ReadUInt64();
                break;
            case WireFormat.WireType.Fixed64:
                ctx.ReadFixed64();
                break;
            case WireFormat.WireType.Fixed32:
                ctx.ReadFixed32();
                break;
            case WireFormat.WireType.LengthDelimited:
                ctx.ReadBytes();
                break;
            case WireFormat.WireType.StartGroup:
                ctx.ReadGroup(Instance);
                break;
            default:
                ThrowHelper.ThrowInvalidWireType(tag);
                break;
        }
    }

    // Inside a group: skip everything up to the end-group tag; ReadGroup then checks that it matches the start.
    void IBufferMessage.InternalMergeFrom(ref ParseContext ctx)
    {
        uint tag;
        while ((tag = ctx.ReadTag()) != 0)
        {
            if (WireFormat.GetTagWireType(tag) == WireFormat.WireType.EndGroup)
            {
                return;
            }

            Skip(ref ctx, tag);
        }
    }

    void IBufferMessage.InternalWriteTo(ref WriteContext ctx) => throw new NotSupportedException();

    void IMessage.MergeFrom(CodedInputStream input) => throw new NotSupportedException();

    void IMessage.WriteTo(CodedOutputStream output) => throw new NotSupportedException();

    int IMessage.CalculateSize() => throw new NotSupportedException();
}
