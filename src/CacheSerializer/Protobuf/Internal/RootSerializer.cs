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

    public RootSerializer(MessageCodec<T> codec) => _codec = codec;

    /// <summary>Writes <paramref name="value"/> after <paramref name="headroom"/> zero bytes, into one array of exactly that size.</summary>
    public byte[] Serialize(T value, int headroom)
    {
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

/// <summary>The holder of a non-contract root value, so the member codecs (scalar, collection, map) serve roots too.</summary>
internal struct RootBox<T>
{
    public T Value;
}

/// <summary>A non-contract root (scalar, string, collection) as field 1 of a wrapper message, as protobuf-net writes it.</summary>
internal sealed class WrapperCodec<T> : MessageCodec<T>
{
    private readonly MemberCodec<RootBox<T>> _member;

    public WrapperCodec(MemberCodec<RootBox<T>> member) => _member = member;

    public override bool IsDefault(T value) => value is null;

    public override int MeasureBody(T value, int depth) => _member.Measure(new RootBox<T> { Value = value }, depth);

    public override void WriteBody(ref WriteContext ctx, T value) => _member.Write(ref ctx, new RootBox<T> { Value = value });

    public override T ReadBody(ref ParseContext ctx, T existing)
    {
        var box = new RootBox<T> { Value = existing };
        uint tag = ctx.ReadTag();
        while (tag != 0)
        {
            if (GetTagFieldNumber(tag) == 1)
            {
                tag = _member.Read(ref ctx, tag, ref box);
            }
            else if (GetTagWireType(tag) == WireType.EndGroup)
            {
                break;
            }
            else
            {
                FieldSkipper.Skip(ref ctx, tag);
                tag = ctx.ReadTag();
            }
        }

        return box.Value;
    }
}
