using CacheSerializer.Memcached;

namespace CacheSerializer.LoadTest.Mix;

/// <summary>A shape whose values are <typeparamref name="T"/>s: seeded templates, and a stamp put into a copy of one.</summary>
/// <typeparam name="T">The model type, with an exact <see cref="IEquatable{T}"/>.</typeparam>
/// <param name="name">The name shown in reports.</param>
/// <param name="share">The share of keys.</param>
/// <param name="description">A short description of the variants.</param>
/// <param name="templates">The seeded variants, built once.</param>
/// <param name="withStamp">Returns a shallow copy of a template with the stamp in one member; the template is never changed.</param>
internal sealed class ValueShape<T>(string name, double share, string description, T[] templates, Func<T, int, T> withStamp) : ValueShape(name, share)
    where T : class, IEquatable<T>
{
    /// <inheritdoc/>
    public override int Variants => templates.Length;

    /// <inheritdoc/>
    public override string Description => description;

    /// <inheritdoc/>
    public override Task<MemcachedStoreResult> WriteAsync(MemcachedClient client, string key, int variant, int stamp, CancellationToken cancellationToken) =>
        client.SetAsync(key, withStamp(templates[variant], stamp), expiration: null, cancellationToken);

    /// <inheritdoc/>
    public override async Task<(bool Found, object? Value)> ReadAsync(MemcachedClient client, string key, CancellationToken cancellationToken)
    {
        MemcachedGetResult<T> result = await client.GetAsync<T>(key, cancellationToken).ConfigureAwait(false);
        return (result.Found, result.Value);
    }

    /// <inheritdoc/>
    public override bool Matches(object? value, int variant, int stamp) => value is T read && read.Equals(withStamp(templates[variant], stamp));

    /// <inheritdoc/>
    public override object Create(int variant, int stamp) => withStamp(templates[variant], stamp);

    /// <inheritdoc/>
    public override bool WarmUp(ITranscoder transcoder)
    {
        T value = withStamp(templates[0], 1);
        return value.Equals(transcoder.Deserialize<T>(transcoder.Serialize(value)));
    }
}
