namespace CacheSerializer;

/// <summary>One value as memcached stores it: the 32-bit client flags and the payload bytes.</summary>
/// <remarks>
/// The shape matches EnyimMemcachedCore's <c>CacheItem</c>, so transcoders written for it port by changing a <c>using</c>.
/// <see cref="Data"/> may be a slice of a larger buffer: read it through its offset and count.
/// </remarks>
public readonly struct CacheItem : IEquatable<CacheItem>
{
    /// <summary>Creates an item from its flags and payload.</summary>
    /// <param name="flags">The client flags stored with the value.</param>
    /// <param name="data">The payload bytes.</param>
    public CacheItem(uint flags, ArraySegment<byte> data)
    {
        Flags = flags;
        Data = data;
    }

    /// <summary>Gets the client flags stored with the value.</summary>
    public uint Flags { get; }

    /// <summary>Gets the payload bytes.</summary>
    public ArraySegment<byte> Data { get; }

    /// <inheritdoc/>
    public bool Equals(CacheItem other) => Flags == other.Flags && Data.AsSpan().SequenceEqual(other.Data.AsSpan());

    /// <inheritdoc/>
    public override bool Equals(object? obj) => obj is CacheItem other && Equals(other);

    /// <inheritdoc/>
    public override int GetHashCode()
    {
        var hash = new HashCode();
        hash.Add(Flags);
        hash.AddBytes(Data.AsSpan());
        return hash.ToHashCode();
    }

    /// <summary>Compares two items by flags and payload bytes.</summary>
    public static bool operator ==(CacheItem left, CacheItem right) => left.Equals(right);

    /// <summary>Compares two items by flags and payload bytes.</summary>
    public static bool operator !=(CacheItem left, CacheItem right) => !left.Equals(right);

    /// <inheritdoc/>
    public override string ToString() => $"CacheItem(Flags=0x{Flags:X4}, {Data.Count} bytes)";
}
