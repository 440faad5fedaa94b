using ProtoBuf.Meta;

namespace CacheSerializer.Transcoding.ProtobufNet;

/// <summary>Writes and reads the bodies of one type through protobuf-net.</summary>
internal abstract class TypeBody
{
    /// <summary>Creates the writer and reader of <paramref name="type"/>'s bodies.</summary>
    public static TypeBody Create(TypeModel model, Type type) =>
        (TypeBody)Activator.CreateInstance(typeof(TypeBody<>).MakeGenericType(type), model)!;

    /// <summary>Returns a new array of <paramref name="headroom"/> bytes of room followed by protobuf-net's body of <paramref name="value"/>.</summary>
    public abstract byte[] Write(object value, int headroom);

    /// <summary>Reads a body with protobuf-net, straight from the item's memory.</summary>
    public abstract object Read(ReadOnlyMemory<byte> body);
}

/// <summary>One type's body writer and reader, with the type as a generic argument so protobuf-net's calls are typed.</summary>
internal sealed class TypeBody<T>(TypeModel model) : TypeBody
{
    // Set once a body of T has been read back. Until then, each Serialize reads its body back, so a type protobuf-net
    // can write but not create (no usable constructor, a collection it cannot add to) is refused at Serialize rather
    // than found when the entry is read. A one-time cost per type.
    private volatile bool _readable;

    public override byte[] Write(object value, int headroom)
    {
        // One pass of protobuf-net into a pooled buffer that starts after the header's room, then one copy into the
        // payload array (left uninitialized: every byte of it is written). Measuring first to write straight into
        // an exact array costs a second walk of the graph, more than the copy: 2x on a flat message. The buffer is
        // written through protobuf-net's Stream API: its IBufferWriter API measures every nested message before
        // writing it, which made Serialize 1.5-3x slower on nested graphs (folders, records, the large object;
        // docs/benchmarks.md, "Transcoders").
        byte[] payload;
        var output = PooledBodyWriter.Rent(headroom);
        try
        {
            model.Serialize(output, (T)value);
            payload = GC.AllocateUninitializedArray<byte>(output.Written);
            output.WrittenSpan.CopyTo(payload);
        }
        finally
        {
            output.Return();
        }

        if (!_readable)
        {
            ReadBack(payload.AsMemory(headroom));
        }

        return payload;
    }

    public override object Read(ReadOnlyMemory<byte> body) => model.Deserialize<T>(body)!;

    private void ReadBack(ReadOnlyMemory<byte> body)
    {
        try
        {
            model.Deserialize<T>(body);
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            throw ThrowHelper.NotReadable(typeof(T), e);
        }

        _readable = true;
    }
}
