using CacheSerializer.Memcached;
using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.LoadTest.Deploy;

/// <summary>A build whose code reads and writes <typeparamref name="T"/> (a subtype's value is written as itself).</summary>
/// <typeparam name="T">The type the build's code asks the cache for.</typeparam>
/// <param name="number">The build number.</param>
/// <param name="aliases">The build's type aliases: the same alias for the class of both builds.</param>
/// <param name="create">Makes version v of key k's value.</param>
/// <param name="describe">Writes a value as text, every member.</param>
internal sealed class DeployBuild<T>(int number, IReadOnlyDictionary<Type, int> aliases, Func<int, int, T> create, Func<T, string> describe) : DeployBuild
    where T : class
{
    /// <inheritdoc/>
    public override int Number => number;

    /// <inheritdoc/>
    public override ProtobufTranscoder CreateTranscoder()
    {
        var options = new ProtobufTranscoderOptions();
        foreach ((Type type, int alias) in aliases)
        {
            options.TypeAliases.Add(type, alias);
        }

        return new ProtobufTranscoder(options);
    }

    /// <inheritdoc/>
    public override async Task<string?> ReadAsync(MemcachedClient client, string key, CancellationToken cancellationToken)
    {
        MemcachedGetResult<T> result = await client.GetAsync<T>(key, cancellationToken).ConfigureAwait(false);
        return result.Found ? describe(result.Value!) : null;
    }

    /// <inheritdoc/>
    public override Task<MemcachedStoreResult> FillAsync(MemcachedClient client, string key, int k, int version, CancellationToken cancellationToken) =>
        client.AddAsync(key, create(k, version), expiration: null, cancellationToken);

    /// <inheritdoc/>
    public override Task<MemcachedStoreResult> WriteAsync(MemcachedClient client, string key, int k, int version, CancellationToken cancellationToken) =>
        client.SetAsync(key, create(k, version), expiration: null, cancellationToken);

    /// <inheritdoc/>
    public override async Task<string> GetOrCreateAsync(MemcachedClient client, string key, int k, Func<CancellationToken, Task<int>> load, CancellationToken cancellationToken) =>
        describe(await client.GetOrCreateAsync(key, async token => create(k, await load(token).ConfigureAwait(false)), options: null, cancellationToken).ConfigureAwait(false));

    /// <inheritdoc/>
    public override async Task<string> GetOrCreateAsync(HybridCache hybrid, HybridCacheEntryOptions options, string key, int k, Func<CancellationToken, Task<int>> load, CancellationToken cancellationToken) =>
        describe(await hybrid.GetOrCreateAsync(key, async token => create(k, await load(token).ConfigureAwait(false)), options, cancellationToken: cancellationToken).ConfigureAwait(false));

    /// <inheritdoc/>
    public override async Task<MemcachedStoreResult> WriteAsync(HybridCache hybrid, HybridCacheEntryOptions options, string key, int k, int version, CancellationToken cancellationToken)
    {
        await hybrid.SetAsync(key, create(k, version), options, cancellationToken: cancellationToken).ConfigureAwait(false);
        return MemcachedStoreResult.Stored;
    }

    /// <inheritdoc/>
    public override string Expected(int k, int version) => describe(create(k, version));
}
