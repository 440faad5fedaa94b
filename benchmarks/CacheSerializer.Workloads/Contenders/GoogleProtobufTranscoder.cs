using System.Reflection;
using Google.Protobuf;

namespace CacheSerializer.Workloads.Contenders;

/// <summary>
/// The protobuf ceiling: Google.Protobuf's generated code writing and parsing its own messages (<see cref="IMessage"/>),
/// under a flag of our own (0x0501). It stores messages only; the workloads hand it their generated form.
/// </summary>
/// <remarks>
/// Generated code is the fastest a protobuf encoder gets, so the benchmarks give this contender the messages converted
/// once at setup (<see cref="Protos.ProtoConvert"/>), not the POCOs. The payload is the bare message, so the caller names
/// the type: use <see cref="Deserialize{T}"/> with the message type; the non-generic read throws.
/// </remarks>
public sealed class GoogleProtobufTranscoder : ITranscoder
{
    /// <summary>The flag of a protobuf message payload.</summary>
    public const uint MessageFlag = 0x0501;

    /// <inheritdoc/>
    public CacheItem Serialize(object? value)
    {
        if (value is not IMessage message)
        {
            throw new CacheSerializerException($"Google.Protobuf stores generated messages, not a {value?.GetType().ToString() ?? "null"}.");
        }

        return new CacheItem(MessageFlag, new ArraySegment<byte>(message.ToByteArray()));
    }

    /// <inheritdoc/>
    /// <exception cref="CacheSerializerException">Always: the payload does not name its message type.</exception>
    public object? Deserialize(CacheItem item) =>
        throw new CacheSerializerException("Google.Protobuf needs the message type to read: call Deserialize<T>.");

    /// <inheritdoc/>
    public T? Deserialize<T>(CacheItem item)
    {
        if (item.Flags != MessageFlag)
        {
            throw new CacheSerializerException($"Google.Protobuf does not read {item}.");
        }

        MessageParser parser = ParserOf<T>.Parser ?? throw new CacheSerializerException($"{typeof(T)} is not a Google.Protobuf generated message.");
        try
        {
            return (T)parser.ParseFrom(item.Data.Array!, item.Data.Offset, item.Data.Count);
        }
        catch (InvalidProtocolBufferException ex)
        {
            throw new CacheSerializerException($"Google.Protobuf could not read {item} as {typeof(T)}.", ex);
        }
    }

    /// <summary>The generated static <c>Parser</c> of a message type, looked up once per type.</summary>
    private static class ParserOf<T>
    {
        public static readonly MessageParser? Parser =
            typeof(T).GetProperty("Parser", BindingFlags.Public | BindingFlags.Static)?.GetValue(null) as MessageParser;
    }
}
