namespace CacheSerializer.Memcached;

/// <summary>The outcome of a read: a hit with its value and CAS token, or a miss.</summary>
/// <typeparam name="T">The value's type.</typeparam>
public readonly struct MemcachedGetResult<T>
{
    /// <summary>Creates a hit.</summary>
    /// <param name="value">The value read.</param>
    /// <param name="cas">The item's CAS token (0 when it was not asked for).</param>
    public MemcachedGetResult(T? value, ulong cas)
    {
        Found = true;
        Value = value;
        Cas = cas;
    }

    /// <summary>Gets a value indicating whether the key was found; a stored null or empty string is a hit.</summary>
    public bool Found { get; }

    /// <summary>Gets the value on a hit; the default of <typeparamref name="T"/> on a miss.</summary>
    public T? Value { get; }

    /// <summary>Gets the item's CAS token on a hit from <see cref="MemcachedClient.GetWithCasAsync{T}"/>; 0 otherwise.</summary>
    public ulong Cas { get; }

    /// <inheritdoc/>
    public override string ToString() => Found ? $"Hit({Value}, cas {Cas})" : "Miss";
}
