using System.Collections;
using CacheSerializer.Workloads.Contenders.Internal;
using Newtonsoft.Json;
using Newtonsoft.Json.Bson;

namespace CacheSerializer.Workloads.Contenders;

/// <summary>
/// The baseline: what EnyimMemcachedCore's DefaultTranscoder does, primitives natively and every other object as BSON
/// through Newtonsoft.Json.Bson with a default <see cref="JsonSerializer"/>, under flag 0x0101.
/// </summary>
/// <remarks>
/// Modelled on cnblogs/EnyimMemcachedCore's DefaultTranscoder (read, not copied), costs included: a new serializer per
/// call, <see cref="MemoryStream.ToArray"/> on write, and on a typed read a copy of the payload before parsing, and
/// a root that is a collection read as a BSON array. One deliberate difference: the reader returns instants as UTC,
/// where DefaultTranscoder's reader converts them to local time; the stored bytes are the same, and only this way does a
/// UTC <see cref="DateTime"/> come back equal on a machine whose time zone is not UTC. Without type names in the payload,
/// the non-generic <see cref="Deserialize(CacheItem)"/> returns Newtonsoft's JSON tree for objects, as DefaultTranscoder does.
/// </remarks>
public sealed class EnyimBsonTranscoder : ITranscoder
{
    /// <inheritdoc/>
    public CacheItem Serialize(object? value)
    {
        if (EnyimPrimitives.TrySerialize(value, out CacheItem item))
        {
            return item;
        }

        try
        {
            using var stream = new MemoryStream();
            using (var writer = new BsonDataWriter(stream))
            {
                new JsonSerializer().Serialize(writer, value);
            }

            return new CacheItem(EnyimPrimitives.ObjectFlag, new ArraySegment<byte>(stream.ToArray()));
        }
        catch (Exception ex) when (ex is not CacheSerializerException)
        {
            throw new CacheSerializerException($"BSON could not write a {value!.GetType()}.", ex);
        }
    }

    /// <inheritdoc/>
    public object? Deserialize(CacheItem item)
    {
        try
        {
            if (EnyimPrimitives.TryDeserialize(item, out object? value))
            {
                return value;
            }

            using var reader = new BsonDataReader(new MemoryStream(item.Data.Array!, item.Data.Offset, item.Data.Count, writable: false))
            {
                DateTimeKindHandling = DateTimeKind.Utc,
            };
            return new JsonSerializer().Deserialize(reader);
        }
        catch (Exception ex) when (ex is not CacheSerializerException)
        {
            throw new CacheSerializerException($"BSON could not read {item}.", ex);
        }
    }

    /// <inheritdoc/>
    public T? Deserialize<T>(CacheItem item)
    {
        if (EnyimPrimitives.IsPrimitive(typeof(T)))
        {
            object? value = Deserialize(item);
            return value is null ? default : (T)value;
        }

        try
        {
            using var reader = new BsonDataReader(new MemoryStream(item.Data.ToArray()))
            {
                ReadRootValueAsArray = typeof(IEnumerable).IsAssignableFrom(typeof(T)),
                DateTimeKindHandling = DateTimeKind.Utc,
            };
            return new JsonSerializer().Deserialize<T>(reader);
        }
        catch (Exception ex) when (ex is not CacheSerializerException)
        {
            throw new CacheSerializerException($"BSON could not read {item} as {typeof(T)}.", ex);
        }
    }
}
