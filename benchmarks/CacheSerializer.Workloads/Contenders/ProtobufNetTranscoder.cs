using ProtoBuf.Meta;

namespace CacheSerializer.Workloads.Contenders;

/// <summary>
/// Raw protobuf-net 3.4.40, as an application calls it itself: <c>model.Serialize</c> into a stream, <c>model.Deserialize&lt;T&gt;</c>
/// from the bytes, on the shared workload classes, with no type header, codec choice or guard. Flag 0x0801.
/// </summary>
/// <remarks>
/// Its model is the transcoder's (<see cref="ProtobufTranscoder.CreateModel"/>: parseable types, DateTime kinds, null-wrapped
/// collections), since a plain <c>RuntimeTypeModel</c> loses DateTime kinds and the difference between a null and an empty
/// list in these workloads and would fail the round-trip check; so its bodies are byte for byte this transcoder's, and the
/// comparison shows what the transcoder's own work costs. Objects only, read by <see cref="Deserialize{T}"/>.
/// </remarks>
public sealed class ProtobufNetTranscoder : ITranscoder
{
    /// <summary>The flag of a protobuf-net payload.</summary>
    public const uint ProtobufNetFlag = 0x0801;

    private readonly RuntimeTypeModel _model = ProtobufTranscoder.CreateModel();

    /// <inheritdoc/>
    public CacheItem Serialize(object? value)
    {
        if (value is null)
        {
            throw new CacheSerializerException("protobuf-net does not store null as a root.");
        }

        try
        {
            var stream = new MemoryStream();
            _model.Serialize(stream, value);
            return new CacheItem(ProtobufNetFlag, new ArraySegment<byte>(stream.GetBuffer(), 0, (int)stream.Length));
        }
        catch (Exception ex) when (ex is not (CacheSerializerException or OutOfMemoryException))
        {
            throw new CacheSerializerException($"protobuf-net could not write a {value.GetType()}.", ex);
        }
    }

    /// <inheritdoc/>
    /// <exception cref="CacheSerializerException">Always: the payload does not say which type to read.</exception>
    public object? Deserialize(CacheItem item) =>
        throw new CacheSerializerException("protobuf-net needs the type to read: call Deserialize<T>.");

    /// <inheritdoc/>
    public T? Deserialize<T>(CacheItem item)
    {
        if (item.Flags != ProtobufNetFlag)
        {
            throw new CacheSerializerException($"protobuf-net does not read {item}.");
        }

        try
        {
            return _model.Deserialize<T>(item.Data.AsMemory());
        }
        catch (Exception ex) when (ex is not (CacheSerializerException or OutOfMemoryException))
        {
            throw new CacheSerializerException($"protobuf-net could not read {item} as {typeof(T)}.", ex);
        }
    }
}
