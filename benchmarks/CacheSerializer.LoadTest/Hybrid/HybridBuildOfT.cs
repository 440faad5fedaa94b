using CacheSerializer.LoadTest.Hybrid.Models;
using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>A build whose code caches <typeparamref name="T"/>.</summary>
/// <typeparam name="T">The build's row class.</typeparam>
/// <param name="number">The build number.</param>
/// <param name="create">Makes version v of key k's row.</param>
internal sealed class HybridBuild<T>(int number, Func<int, int, T> create) : HybridBuild
    where T : class, IHybridRow
{
    /// <inheritdoc/>
    public override int Number => number;

    /// <inheritdoc/>
    public override ProtobufTranscoder CreateTranscoder()
    {
        var options = new ProtobufTranscoderOptions();
        options.TypeAliases.Add(typeof(T), RowAlias);
        return new ProtobufTranscoder(options);
    }

    /// <inheritdoc/>
    public override async ValueTask<IHybridRow> GetOrCreateAsync(HybridCache cache, string key, HybridFactory factory, HybridCacheEntryOptions options, IEnumerable<string>? tags, CancellationToken cancellationToken) =>
        await cache.GetOrCreateAsync(
            key,
            (Factory: factory, Create: create),
            static async (state, _) => state.Create(state.Factory.Key, await state.Factory.RunAsync().ConfigureAwait(false)),
            options,
            tags,
            cancellationToken).ConfigureAwait(false);
}
