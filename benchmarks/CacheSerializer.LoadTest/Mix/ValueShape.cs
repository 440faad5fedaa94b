using CacheSerializer.Memcached;

namespace CacheSerializer.LoadTest.Mix;

/// <summary>One kind of cached object in the mix: a share of the keys, a few seeded variants, and how to write and check one.</summary>
/// <remarks>
/// Every write stores a variant with a <em>stamp</em> (a number unique to that write in the pass) put into one of its
/// members, so every value ever written in a pass differs from every other: a read that returns another key's value, an
/// older value of the same key, or a value from before the flush cannot pass the check.
/// </remarks>
internal abstract class ValueShape
{
    private protected ValueShape(string name, double share)
    {
        Name = name;
        Share = share;
    }

    /// <summary>Gets the name shown in reports.</summary>
    public string Name { get; }

    /// <summary>Gets the share of keys that hold this shape (the shares of a mix add up to 1).</summary>
    public double Share { get; }

    /// <summary>Gets the number of seeded variants a write picks from.</summary>
    public abstract int Variants { get; }

    /// <summary>Gets a short description of the variants (e.g. "1,000-3,000 entries").</summary>
    public abstract string Description { get; }

    /// <summary>Stores variant <paramref name="variant"/> stamped with <paramref name="stamp"/> under <paramref name="key"/>.</summary>
    /// <param name="client">The client (its transcoder is the contender's).</param>
    /// <param name="key">The key.</param>
    /// <param name="variant">The variant.</param>
    /// <param name="stamp">The write's stamp.</param>
    /// <param name="cancellationToken">Cancels the call.</param>
    /// <returns>The store result.</returns>
    public abstract Task<MemcachedStoreResult> WriteAsync(MemcachedClient client, string key, int variant, int stamp, CancellationToken cancellationToken);

    /// <summary>Reads the key through the typed path, as an application would.</summary>
    /// <param name="client">The client.</param>
    /// <param name="key">The key.</param>
    /// <param name="cancellationToken">Cancels the call.</param>
    /// <returns>Whether it was found, and the value.</returns>
    public abstract Task<(bool Found, object? Value)> ReadAsync(MemcachedClient client, string key, CancellationToken cancellationToken);

    /// <summary>Whether a value read back is exactly variant <paramref name="variant"/> stamped with <paramref name="stamp"/>.</summary>
    /// <param name="value">The value read.</param>
    /// <param name="variant">The variant written.</param>
    /// <param name="stamp">The stamp written.</param>
    /// <returns><see langword="true"/> when every member is equal.</returns>
    public abstract bool Matches(object? value, int variant, int stamp);

    /// <summary>Returns the value a write of this variant and stamp stores (for the size check of the mix).</summary>
    /// <param name="variant">The variant.</param>
    /// <param name="stamp">The stamp.</param>
    /// <returns>The value.</returns>
    public abstract object Create(int variant, int stamp);

    /// <summary>Writes and reads one value through the transcoder alone, so code generation and per-type caches are ready before timing.</summary>
    /// <param name="transcoder">The contender's transcoder.</param>
    /// <returns>Whether the value read back matches.</returns>
    public abstract bool WarmUp(ITranscoder transcoder);
}
