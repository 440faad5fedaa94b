using MemoryPack;

namespace CacheSerializer.Workloads.Contenders;

/// <summary>
/// MemoryPack 1.21 on the peer models (<see cref="Peers"/>): its source-generated formatters, which copy the in-memory
/// layout of unmanaged members and write subtypes by <c>[MemoryPackUnion]</c> tag. Flag 0x0701.
/// </summary>
/// <remarks>The payload does not name its root type: use <see cref="Deserialize{T}"/>; the non-generic read throws.</remarks>
public sealed class MemoryPackTranscoder : ITranscoder
{
    /// <summary>The flag of a MemoryPack payload.</summary>
    public const uint MemoryPackFlag = 0x0701;

    /// <inheritdoc/>
    public CacheItem Serialize(object? value)
    {
        try
        {
            byte[] payload = value is null ? MemoryPackSerializer.Serialize<object?>(null) : MemoryPackSerializer.Serialize(value.GetType(), value);
            return new CacheItem(MemoryPackFlag, new ArraySegment<byte>(payload));
        }
        catch (Exception ex) when (ex is not (CacheSerializerException or OutOfMemoryException))
        {
            throw new CacheSerializerException($"MemoryPack could not write a {value?.GetType().ToString() ?? "null"}.", ex);
        }
    }

    /// <inheritdoc/>
    /// <exception cref="CacheSerializerException">Always: the payload does not say which type to read.</exception>
    public object? Deserialize(CacheItem item) =>
        throw new CacheSerializerException("MemoryPack needs the type to read: call Deserialize<T>.");

    /// <inheritdoc/>
    public T? Deserialize<T>(CacheItem item)
    {
        if (item.Flags != MemoryPackFlag)
        {
            throw new CacheSerializerException($"MemoryPack does not read {item}.");
        }

        try
        {
            return MemoryPackSerializer.Deserialize<T>(item.Data.AsSpan());
        }
        catch (Exception ex) when (ex is not (CacheSerializerException or OutOfMemoryException))
        {
            throw new CacheSerializerException($"MemoryPack could not read {item} as {typeof(T)}.", ex);
        }
    }
}
