using CacheSerializer.Memcached.Internal.Deploys;
using CacheSerializer.Memcached.Internal.Nodes;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached.Internal.Reading;

// Many keys in one call: one pipelined batch of quiet mg's per server, ended by mn, all servers at once.
internal sealed partial class Reads
{
    /// <summary>Reads many keys; the result holds the hits, under the caller's keys.</summary>
    internal async Task<IReadOnlyDictionary<string, T?>> GetManyAsync<T>(IEnumerable<string> keys, CancellationToken cancellationToken)
    {
        List<ServerBatch> batches = BatchByServer(keys);
        GetReply[]?[] replies = await ReadBatchesAsync(batches, cancellationToken).ConfigureAwait(false);
        var results = new Dictionary<string, T?>(StringComparer.Ordinal);
        List<OtherBuildItem>? otherBuild = null;
        for (int i = 0; i < batches.Count; i++)
        {
            if (replies[i] is { } batch)
            {
                ReadBatch(batches[i], batch, results, ref otherBuild);
            }
        }

        if (otherBuild is not null)
        {
            await engine.Copies.ReadCopiesAsync(otherBuild, results, cancellationToken).ConfigureAwait(false);
        }

        return results;
    }

    /// <summary>Reads many keys with their CAS tokens, in the same batches; the result holds the hits, under the caller's
    /// keys. No build copies: a copy's CAS token is not the key's (as <see cref="GetWithCasAsync{T}"/>).</summary>
    internal async Task<IReadOnlyDictionary<string, MemcachedGetResult<T>>> GetManyWithCasAsync<T>(IEnumerable<string> keys, CancellationToken cancellationToken)
    {
        List<ServerBatch> batches = BatchByServer(keys);
        GetReply[]?[] replies = await ReadBatchesAsync(batches, cancellationToken).ConfigureAwait(false);
        var results = new Dictionary<string, MemcachedGetResult<T>>(StringComparer.Ordinal);
        for (int i = 0; i < batches.Count; i++)
        {
            for (int j = 0; replies[i] is { } batch && j < batch.Length; j++)
            {
                MemcachedGetResult<T> read = Read<T>(batches[i].Keys[j], batch[j], withCas: true, out _);
                if (read.Found)
                {
                    results[batches[i].CallerKeys?[j] ?? batches[i].Keys[j].Original] = read;
                }
            }
        }

        return results;
    }

    /// <summary>Sends one batch per server, all at once, and waits for every one before any is read, so a failing
    /// server's exception is observed with the others; a batch is null when its server failed and
    /// <see cref="ServerFailurePolicy.Miss"/> counts its keys as misses.</summary>
    private async Task<GetReply[]?[]> ReadBatchesAsync(List<ServerBatch> batches, CancellationToken cancellationToken)
    {
        var pending = new Task<GetReply[]>[batches.Count];
        for (int i = 0; i < batches.Count; i++)
        {
            pending[i] = engine.ExecuteAsync(batches[i].Node, new MultiGetRequest(batches[i].Keys, engine.Settings.PooledReads, engine.Wins), cancellationToken);
        }

        await Task.WhenAll(pending).ConfigureAwait(false);
        var replies = new GetReply[]?[batches.Count];
        for (int i = 0; i < batches.Count; i++)
        {
            replies[i] = await pending[i].ConfigureAwait(false);
        }

        return replies;
    }

    /// <summary>The caller's keys, once each, grouped by the server each lives on.</summary>
    private List<ServerBatch> BatchByServer(IEnumerable<string> keys)
    {
        var batches = new Dictionary<MemcachedNode, ServerBatch>();

        // The caller's key of each encoded one, in the same order, kept only when a key transformer makes them differ.
        bool transformed = engine.Settings.KeyTransformer != MemcachedKeyTransformer.None;
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (string key in keys)
        {
            ArgumentNullException.ThrowIfNull(key, nameof(keys));
            if (!seen.Add(key))
            {
                continue;
            }

            MemcachedKey encoded = engine.Key(key);
            MemcachedNode node = engine.Locate(encoded);
            if (!batches.TryGetValue(node, out ServerBatch? batch))
            {
                batches[node] = batch = new ServerBatch(node, [], transformed ? [] : null);
            }

            batch.Keys.Add(encoded);
            batch.CallerKeys?.Add(key);
        }

        return [.. batches.Values];
    }

    /// <summary>Reads one server's replies into <paramref name="results"/>, then gives their rented bytes back; a key
    /// whose item another build wrote is added to <paramref name="otherBuild"/>, for its copy.</summary>
    private void ReadBatch<T>(ServerBatch batch, GetReply[] replies, Dictionary<string, T?> results, ref List<OtherBuildItem>? otherBuild)
    {
        try
        {
            for (int i = 0; i < replies.Length; i++)
            {
                if (!replies[i].Hit)
                {
                    continue;
                }

                string callerKey = batch.CallerKeys?[i] ?? batch.Keys[i].Original;
                if (TryRead(batch.Keys[i], replies[i], out T? value, out TranscoderErrorKind reason))
                {
                    results[callerKey] = value;
                }
                else if (OtherBuildCas(reason, replies[i]) is ulong cas and not 0)
                {
                    (otherBuild ??= []).Add(new OtherBuildItem(batch.Node, batch.Keys[i], callerKey, cas));
                }
            }
        }
        finally
        {
            foreach (GetReply reply in replies)
            {
                reply.Release();
            }
        }
    }

    /// <summary>The keys of one server in a batch read, and the caller's key of each when a key transformer makes them differ.</summary>
    private sealed record ServerBatch(MemcachedNode Node, List<MemcachedKey> Keys, List<string>? CallerKeys);
}
