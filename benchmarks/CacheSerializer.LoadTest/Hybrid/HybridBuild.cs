using CacheSerializer.LoadTest.Hybrid.Models;
using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>One build of the hybrid scenario's web servers: the type its code caches (<see cref="HybridRowV1"/>, or after
/// the deploy <see cref="HybridRowV2"/>) and the transcoder it registers, whose type alias gives both builds' classes
/// the same type identity in an item's header, with each build's contract fingerprint (as the deploy scenario's builds).</summary>
internal abstract class HybridBuild
{
    /// <summary>The alias both builds give their row class.</summary>
    private protected const int RowAlias = 39;

    /// <summary>Gets build 1: the price in cents.</summary>
    public static HybridBuild First { get; } = new HybridBuild<HybridRowV1>(1, HybridRowV1.Create);

    /// <summary>Gets build 2: the price retyped to text.</summary>
    public static HybridBuild Second { get; } = new HybridBuild<HybridRowV2>(2, HybridRowV2.Create);

    /// <summary>Gets the build number, 1 or 2.</summary>
    public abstract int Number { get; }

    /// <summary>Creates the transcoder of this build (a new one per web server, as each process has its own).</summary>
    /// <returns>The transcoder.</returns>
    public abstract ProtobufTranscoder CreateTranscoder();

    /// <summary>Reads a key through <c>HybridCache.GetOrCreateAsync</c> of this build's type.</summary>
    /// <param name="cache">The web server's HybridCache.</param>
    /// <param name="key">The key.</param>
    /// <param name="factory">The read's factory: it gives the row's version the value is made from.</param>
    /// <param name="options">The entry options.</param>
    /// <param name="tags">The entry's tags, or null.</param>
    /// <param name="cancellationToken">Ends the call when the web server stops.</param>
    /// <returns>The value.</returns>
    public abstract ValueTask<IHybridRow> GetOrCreateAsync(HybridCache cache, string key, HybridFactory factory, HybridCacheEntryOptions options, IEnumerable<string>? tags, CancellationToken cancellationToken);
}
