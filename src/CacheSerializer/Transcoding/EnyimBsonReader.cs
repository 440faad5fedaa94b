using Newtonsoft.Json;
using Newtonsoft.Json.Bson;
using Newtonsoft.Json.Serialization;

namespace CacheSerializer.Transcoding;

/// <summary>
/// The default inner transcoder: reads the object entries EnyimMemcachedCore's DefaultTranscoder wrote (flag 0x0101,
/// and 0x010F from its older decimals), which are BSON documents written by Newtonsoft.Json's JsonSerializer, so an
/// app's warm cache keeps working the day it switches. It only reads: ProtobufTranscoder writes.
/// </summary>
/// <remarks>
/// Unlike DefaultTranscoder, it reads the root as a BSON array only when the target is a JSON array contract (a
/// dictionary is a document, though it is IEnumerable), never honours type names in the payload
/// (TypeNameHandling.None), and bounds nesting depth.
/// </remarks>
internal sealed class EnyimBsonReader : ITranscoder
{
    public static readonly EnyimBsonReader Instance = new();

    private const int MaxDepth = 64;

    private EnyimBsonReader()
    {
    }

    public CacheItem Serialize(object? value) =>
        throw ThrowHelper.EnyimBsonWriteRefused(value?.GetType());

    public object? Deserialize(CacheItem item) => Read(item, typeof(object));

    public T? Deserialize<T>(CacheItem item) => Read(item, typeof(T)) is T value ? value : default;

    private static object? Read(CacheItem item, Type type)
    {
        if (item.Flags is not (TranscoderFlags.EnyimObject or TranscoderFlags.EnyimDecimal))
        {
            return ThrowHelper.ThrowNotEnyimObject(item.Flags, type);
        }

        try
        {
            using var stream = new MemoryStream(item.Data.Array ?? [], item.Data.Offset, item.Data.Count, writable: false);
            using var reader = new BsonDataReader(stream)
            {
                ReadRootValueAsArray = type != typeof(object) && Bson.Serializer.ContractResolver.ResolveContract(type) is JsonArrayContract,
                MaxDepth = MaxDepth,
            };
            return Bson.Serializer.Deserialize(reader, type);
        }
        catch (Exception e) when (e is JsonException or InvalidCastException or ArgumentException or IOException or FormatException or OverflowException)
        {
            throw ThrowHelper.EnyimBsonReadFailed(item.Flags, type, e);
        }
    }

    // Created on the first BSON entry read, so an app whose cache holds none never loads Newtonsoft.Json.
    private static class Bson
    {
        public static readonly JsonSerializer Serializer = JsonSerializer.Create(new JsonSerializerSettings
        {
            TypeNameHandling = TypeNameHandling.None,
            MaxDepth = MaxDepth,
        });
    }
}
