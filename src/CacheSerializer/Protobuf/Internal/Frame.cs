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
    // One thread-static slot (a single TLS access per message): the frames of this thread, indexed by nesting.
    [ThreadStatic]
    private static Pool? t_pool;

    private IBodyReader<T>? _reader;
    private IBodyWriter<T>? _writer;
    private T _value = default!;

    MessageDescriptor IMessage.Descriptor => throw new NotSupportedException();

    /// <summary>Reads a length-delimited message at the current position into <paramref name="existing"/>.</summary>
    public static T ReadMessage(ref ParseContext ctx, IBodyReader<T> reader, T existing)
    {
        var frame = Rent(out var pool);
        frame._reader = reader;
        frame._value = existing;
        try
        {
            ctx.ReadMessage(frame);
            return frame._value;
        }
        finally
        {
            // The JIT clones finally blocks onto the normal path, so this costs nothing until a read throws.
            Return(frame, pool);
        }
    }

    /// <summary>Reads a run of sibling messages (a repeated field) through one frame: one pool access for the whole run.</summary>
    public static void ReadRun(ref ParseContext ctx, IBodyReader<T> reader, List<T> target, ref uint tag)
    {
        var frame = Rent(out var pool);
        frame._reader = reader;
        try
        {
            uint first = tag;
            do
            {
                frame._value = default!;
                ctx.ReadMessage(frame);
                target.Add(frame._value);
                tag = ctx.ReadTag();
            }
            while (tag == first);
        }
        finally
        {
            Return(frame, pool);
        }
    }

    /// <summary>Reads a whole payload as one message body.</summary>
    public static T ReadRoot(ReadOnlySpan<byte> data, IBodyReader<T> reader, T existing = default!)
    {
        var frame = Rent(out var pool);
        frame._reader = reader;
        frame._value = existing;
        try
        {
            frame.MergeFrom(data);
            return frame._value;
        }
        finally
        {
            Return(frame, pool);
        }
    }

    /// <summary>Writes one message body into a span of exactly its size.</summary>
    public static void WriteRoot(Span<byte> destination, IBodyWriter<T> writer, T value)
    {
        var frame = Rent(out var pool);
        frame._writer = writer;
        frame._value = value;
        try
        {
            frame.WriteTo(destination);
        }
        finally
        {
            Return(frame, pool);
        }
    }

    private static Frame<T> Rent(out Pool pool)
    {
        pool = t_pool ??= new Pool();
        int depth = pool.Depth;
        if (depth == pool.Frames.Length)
        {
            Array.Resize(ref pool.Frames, depth * 2);
        }

        pool.Depth = depth + 1;
        return pool.Frames[depth] ??= new Frame<T>();
    }

    private static void Return(Frame<T> frame, Pool pool)
    {
        frame._value = default!;
        frame._reader = null;
        frame._writer = null;
        pool.Depth--;
    }

    void IBufferMessage.InternalMergeFrom(ref ParseContext ctx) => _value = _reader!.ReadBody(ref ctx, _value);

    void IBufferMessage.InternalWriteTo(ref WriteContext ctx) => _writer!.WriteBody(ref ctx, _value);

    void IMessage.MergeFrom(CodedInputStream input) => throw new NotSupportedException();

    void IMessage.WriteTo(CodedOutputStream output) => throw new NotSupportedException();

    int IMessage.CalculateSize() => throw new NotSupportedException();

    private sealed class Pool
    {
        public Frame<T>?[] Frames = new Frame<T>?[4];
        public int Depth;
    }
}
