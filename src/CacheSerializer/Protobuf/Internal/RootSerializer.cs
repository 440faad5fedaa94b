using Google.Protobuf;
using static Google.Protobuf.WireFormat;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>The compiled, cached serializer of one root type: measure, allocate once, write; or read a whole payload.</summary>
internal abstract class RootSerializer
{
    public abstract byte[] SerializeObject(object value, int headroom);

    public abstract object? DeserializeObject(ReadOnlySpan<byte> data);
}

internal sealed class RootSerializer<T> : RootSerializer
{
    private readonly MessageCodec<T> _codec;

    // A flat contract writes no nested message, so it needs no size cache (two thread-static accesses saved per call).
    private readonly bool _needsSizes;

    public RootSerializer(MessageCodec<T> codec)
    {
        _codec = codec;
        _needsSizes = codec is not ContractCodec<T> { IsFlat: true };
    }

    /// <summary>Writes <paramref name="value"/> after <paramref name="headroom"/> zero bytes, into one array of exactly that size.</summary>
    public byte[] Serialize(T value, int headroom)
    {
        if (!_needsSizes)
        {
            var flat = new byte[headroom + _codec.MeasureBody(value, 0)];
            Frame<T>.WriteRoot(flat.AsSpan(headroom), _codec, value);
            return flat;
        }

        var previous = SizeCache.Begin();
        try
        {
            int size = _codec.MeasureBody(value, 0);
            var buffer = new byte[headroom + size];
            Frame<T>.WriteRoot(buffer.AsSpan(headroom), _codec, value);
            return buffer;
        }
        finally
        {
            SizeCache.End(previous);
        }
    }

    public T Deserialize(ReadOnlySpan<byte> data)
    {
        try
        {
            return Frame<T>.ReadRoot(data, _codec);
        }
        catch (ProtoException)
        {
            throw;
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // InvalidProtocolBufferException, and what hostile values make BCL constructors throw (a decimal scale of 29,
            // a tick count past DateTime.MaxValue, an unparseable Version): all are bad input, reported as one type.
            return ThrowHelper.ThrowBadPayload<T>(typeof(T), ex);
        }
    }

    public override byte[] SerializeObject(object value, int headroom) => Serialize((T)value, headroom);

    public override object? DeserializeObject(ReadOnlySpan<byte> data) => Deserialize(data);
}
