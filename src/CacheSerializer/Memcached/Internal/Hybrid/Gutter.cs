using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Nodes;

namespace CacheSerializer.Memcached.Internal.Hybrid;

/// <summary>Where an entry is filled while its own memcached server is down (docs/hybrid.md, "The gutter"): under a
/// gutter key, <c>hc:gutter:&lt;i&gt;:&lt;key&gt;</c>, that lives on another server (the first <c>i</c> from 0 whose key does,
/// on the full ring: every web server with the same server list picks the same one), so that the farm's lease there makes
/// one factory call per change instead of one per web server (Facebook's memcache, NSDI 2013, fills a "gutter" pool the
/// same way). Every removal deletes the gutter copy as well as the entry, so a gutter copy is never older than the last
/// completed removal.</summary>
internal static class Gutter
{
    private const int Tries = 8;

    /// <summary>The gutter key of <paramref name="key"/>; null with a single server (or, most unlikely, when
    /// <see cref="Tries"/> candidates all live on the key's own server).</summary>
    internal static string? KeyOf(MemcachedEngine engine, string key)
    {
        if (engine.Nodes.Count < 2)
        {
            return null;
        }

        MemcachedNode home = engine.Home(engine.Key(key));
        for (int i = 0; i < Tries; i++)
        {
            string gutter = string.Concat("hc:gutter:", i.ToString(System.Globalization.CultureInfo.InvariantCulture), ":", key);
            if (engine.Home(engine.Key(gutter)) != home)
            {
                return gutter;
            }
        }

        return null;
    }

    /// <summary>Gets a value indicating whether the server <paramref name="key"/> lives on is marked down now.</summary>
    internal static bool IsHomeDown(MemcachedEngine engine, string key) => engine.Locate(engine.Key(key)).IsDown;
}
