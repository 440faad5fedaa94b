using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace CacheSerializer.Workloads.Contenders;

/// <summary>
/// What an IDistributedCache user writes by default: every value, primitives included, as UTF-8 JSON through
/// System.Text.Json's source-generated metadata (<see cref="WorkloadJsonContext"/>), under a flag of our own (0x0301).
/// </summary>
/// <remarks>
/// JSON carries no type name, so the caller names the type: use <see cref="Deserialize{T}"/>; the non-generic read
/// throws. Byte arrays become base64 strings, as they do in any JSON document.
/// </remarks>
public sealed class SystemTextJsonTranscoder : ITranscoder
{
    /// <summary>The flag of a JSON payload.</summary>
    public const uint JsonFlag = 0x0301;

    private readonly WorkloadJsonContext _context = WorkloadJsonContext.Default;

    /// <inheritdoc/>
    public CacheItem Serialize(object? value)
    {
        if (value is null)
        {
            return new CacheItem(JsonFlag, new ArraySegment<byte>("null"u8.ToArray()));
        }

        try
        {
            return new CacheItem(JsonFlag, new ArraySegment<byte>(JsonSerializer.SerializeToUtf8Bytes(value, TypeInfo(value.GetType()))));
        }
        catch (Exception ex) when (ex is not CacheSerializerException)
        {
            throw new CacheSerializerException($"System.Text.Json could not write a {value.GetType()}.", ex);
        }
    }

    /// <inheritdoc/>
    /// <exception cref="CacheSerializerException">Always: JSON does not say which type to read.</exception>
    public object? Deserialize(CacheItem item) =>
        throw new CacheSerializerException("System.Text.Json needs the type to read: call Deserialize<T>.");

    /// <inheritdoc/>
    public T? Deserialize<T>(CacheItem item)
    {
        if (item.Flags != JsonFlag)
        {
            throw new CacheSerializerException($"System.Text.Json does not read {item}.");
        }

        try
        {
            return JsonSerializer.Deserialize(item.Data.AsSpan(), (JsonTypeInfo<T>)TypeInfo(typeof(T)));
        }
        catch (Exception ex) when (ex is not CacheSerializerException)
        {
            throw new CacheSerializerException($"System.Text.Json could not read {item} as {typeof(T)}.", ex);
        }
    }

    private JsonTypeInfo TypeInfo(Type type) =>
        _context.GetTypeInfo(type) ?? throw new CacheSerializerException($"WorkloadJsonContext has no metadata for {type}: add [JsonSerializable(typeof({type.Name}))].");
}
