namespace CacheSerializer.Memcached;

/// <summary>Which server a key is stored on: <see cref="MemcachedClientOptions.KeyPlacement"/>. Every client sharing a
/// cache must place keys alike, or each finds the others' entries missing (and a delete by one leaves another's copy).</summary>
public enum KeyPlacement
{
    /// <summary>libmemcached's weighted ketama (MD5, 160 points per server), as libmemcached, pylibmc and the other
    /// ketama clients place keys. The default.</summary>
    Ketama,

    /// <summary>As EnyimMemcachedCore places keys: its <c>DefaultNodeLocator</c> (FNV-1a, 100 points per server) with
    /// several servers, every key on the one server otherwise. For an application switching from EnyimMemcachedCore
    /// while its servers still run it: both find every key on the same server. Server weights are ignored, as
    /// EnyimMemcachedCore has none.</summary>
    EnyimMemcachedCore,

    /// <summary>As EnyimMemcachedCore places keys with <c>UseLegacyNodeLocator</c> set: its <c>LegacyNodeLocator</c>.</summary>
    EnyimMemcachedCoreLegacy,
}
