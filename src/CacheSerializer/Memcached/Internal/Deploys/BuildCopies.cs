using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Nodes;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached.Internal.Deploys;

/// <summary>
/// Copies that keep two builds from evicting each other during a rolling deploy (docs/client.md, "Rolling deploys"): a
/// read that finds another build's item reads this build's copy beside it (<see cref="CopyRequest"/>), and a miss
/// there is remembered (<see cref="PendingFills"/>) so that the fill which follows (<see cref="AddAsync"/>) stores its
/// value as that copy, bound to the item the read saw (<see cref="CopyFormat"/>).
/// </summary>
/// <remarks>While contracts agree nothing is remembered, and a fill is a plain add: nothing is paid for copies.</remarks>
internal sealed class BuildCopies(MemcachedEngine engine)
{
    private readonly PendingFills _pending = new();

    /// <summary>Adds a value: a plain add, unless a read of the key found another build's item just before; then, when
    /// the add finds the key taken, the fill goes beside that item, as this build's copy bound to it.</summary>
    internal Task<MemcachedStoreResult> AddAsync(MemcachedKey key, Type type, CacheItem item, TimeSpan? expiration, CancellationToken cancellationToken) =>
        _pending.Remembers(key.Original, type)
            ? AddOrCopyAsync(key, type, item, expiration, cancellationToken)
            : engine.StoreAsync(StoreMode.Add, key, item, expiration, 0, cancellationToken);

    /// <summary>The read of this build's copy of a key whose item another build wrote (on the key's server).</summary>
    internal GetRequest CopyRequest<T>(in MemcachedKey key) =>
        GetRequest.Get(key.CopyFor(CopyFormat.BuildOf(typeof(T))), pooled: false, engine.GetRequests);

    /// <summary>Reads the reply to <see cref="CopyRequest{T}"/>: a hit while the copy is bound to the item of CAS
    /// <paramref name="cas"/> the key holds; otherwise a miss, remembered so that the fill which follows
    /// (<see cref="AddAsync"/>) stores its value as such a copy.</summary>
    internal MemcachedGetResult<T> ReadCopy<T>(in MemcachedKey key, in GetReply copy, ulong cas) =>
        TryReadCopy(key, copy, cas, out T? value) ? new MemcachedGetResult<T>(value, 0) : default;

    /// <summary>Reads this build's copies of the keys whose items another build wrote, one batch per server, into
    /// <paramref name="results"/>; a key without a copy bound to its item is a miss, remembered for the fill.</summary>
    internal async Task ReadCopiesAsync<T>(List<OtherBuildItem> items, Dictionary<string, T?> results, CancellationToken cancellationToken)
    {
        uint build = CopyFormat.BuildOf(typeof(T));
        foreach (IGrouping<MemcachedNode, OtherBuildItem> server in items.GroupBy(static i => i.Node))
        {
            OtherBuildItem[] ofServer = [.. server];
            GetReply[]? copies = await engine.ExecuteAsync(server.Key, new MultiGetRequest([.. ofServer.Select(i => i.Key.CopyFor(build))], pooled: false, engine.Wins), cancellationToken).ConfigureAwait(false);
            for (int i = 0; i < ofServer.Length; i++)
            {
                OtherBuildItem item = ofServer[i];
                if (TryReadCopy(item.Key, copies is null ? default : copies[i], item.Cas, out T? value))
                {
                    results[item.CallerKey] = value;
                }
            }
        }
    }

    /// <summary>Reads the reply to a get of this build's copy of <paramref name="key"/> (a miss: no reply at all); false
    /// when there is no copy bound to the item of CAS <paramref name="cas"/>, which is then remembered for the fill.</summary>
    private bool TryReadCopy<T>(in MemcachedKey key, in GetReply copy, ulong cas, out T? value)
    {
        if (copy.Hit && CopyFormat.TryUnwrap(copy.Item, cas, out CacheItem item) && engine.Items.TryRead(item, key, out value, out _))
        {
            return true;
        }

        _pending.MissedOtherBuild(key.Original, typeof(T), cas);
        value = default;
        return false;
    }

    private async Task<MemcachedStoreResult> AddOrCopyAsync(MemcachedKey key, Type type, CacheItem item, TimeSpan? expiration, CancellationToken cancellationToken)
    {
        MemcachedStoreResult result = await engine.StoreAsync(StoreMode.Add, key, item, expiration, 0, cancellationToken).ConfigureAwait(false);
        bool otherBuild = _pending.TryTakeMiss(key.Original, type, out ulong cas);
        return result == MemcachedStoreResult.NotStored && otherBuild
            ? await StoreCopyAsync(key, type, cas, item, expiration, cancellationToken).ConfigureAwait(false)
            : result;
    }

    /// <summary>Stores <paramref name="item"/> as this build's copy of <paramref name="key"/>, bound to the item of
    /// another build a read saw under CAS <paramref name="cas"/>, on the key's own server; too large a copy is not stored.</summary>
    private Task<MemcachedStoreResult> StoreCopyAsync(MemcachedKey key, Type type, ulong cas, CacheItem item, TimeSpan? expiration, CancellationToken cancellationToken)
    {
        CacheItem copy = CopyFormat.Wrap(cas, item);
        var request = new StoreRequest(key.CopyFor(CopyFormat.BuildOf(type)), StoreMode.Set, copy, expiration, 0);
        return request.ValueSize > engine.Settings.MaxValueSize
            ? Task.FromResult(MemcachedStoreResult.NotStored)
            : engine.ExecuteAsync(engine.Locate(key), request, cancellationToken);
    }
}
