using CacheSerializer.Memcached.Internal;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached;

/// <summary>Operations on many keys or on every server.</summary>
public sealed partial class MemcachedClient
{
    /// <summary>Reads many keys: one pipelined batch of quiet <c>mg</c>s per server, ended by <c>mn</c>, all servers at once.</summary>
    /// <typeparam name="T">The expected type of the values.</typeparam>
    /// <param name="keys">The keys; duplicates are read once.</param>
    /// <param name="cancellationToken">Cancels the wait; the connections stay in step.</param>
    /// <returns>The hits, by key; a missing key is absent from the dictionary.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="keys"/> or one of its keys is null.</exception>
    /// <exception cref="MemcachedException">A server is down, timed out or answered with an error (unless <see cref="MemcachedClientOptions.MissOnServerFailure"/>).</exception>
    /// <exception cref="CacheSerializerException">The transcoder cannot read a stored item as a <typeparamref name="T"/>.</exception>
    public async Task<IReadOnlyDictionary<string, T?>> GetManyAsync<T>(IEnumerable<string> keys, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(keys);
        var batches = new Dictionary<MemcachedNode, List<MemcachedKey>>();
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (string key in keys)
        {
            ArgumentNullException.ThrowIfNull(key, nameof(keys));
            if (!seen.Add(key))
            {
                continue;
            }

            MemcachedKey encoded = MemcachedKey.Create(_settings.KeyPrefix, key);
            MemcachedNode node = Locate(encoded);
            if (!batches.TryGetValue(node, out List<MemcachedKey>? batch))
            {
                batches[node] = batch = [];
            }

            batch.Add(encoded);
        }

        var pending = new List<(List<MemcachedKey> Keys, Task<GetReply[]> Replies)>(batches.Count);
        foreach ((MemcachedNode node, List<MemcachedKey> batch) in batches)
        {
            pending.Add((batch, ExecuteAsync(node, new MultiGetRequest(batch), read: true, cancellationToken)));
        }

        // Wait for every batch before reading any, so a failing server's exception is observed with the others.
        await Task.WhenAll(pending.Select(static p => p.Replies)).ConfigureAwait(false);
        var results = new Dictionary<string, T?>(StringComparer.Ordinal);
        foreach ((List<MemcachedKey> batch, Task<GetReply[]> task) in pending)
        {
            GetReply[]? replies = await task.ConfigureAwait(false);
            if (replies is null)
            {
                continue; // the server failed and MissOnServerFailure counts its keys as misses
            }

            for (int i = 0; i < replies.Length; i++)
            {
                if (replies[i].Hit)
                {
                    results[batch[i].Original] = _transcoder.Deserialize<T>(replies[i].Item);
                }
            }
        }

        return results;
    }

    /// <summary>Invalidates every item on every server (<c>flush_all</c>).</summary>
    /// <param name="cancellationToken">Cancels the wait.</param>
    /// <returns>A task that completes when every server has answered.</returns>
    /// <exception cref="MemcachedException">A server is down, timed out or answered with an error.</exception>
    public Task FlushAllAsync(CancellationToken cancellationToken = default) =>
        Task.WhenAll(Array.ConvertAll(_nodes, node => ExecuteAsync(node, TextRequest.FlushAll(), read: false, cancellationToken)));

    /// <summary>Reads the general statistics (<c>stats</c>) of every server.</summary>
    /// <param name="cancellationToken">Cancels the wait.</param>
    /// <returns>For each server (<c>host:port</c>), its statistics by name (pid, uptime, curr_items, get_hits, ...).</returns>
    /// <exception cref="MemcachedException">A server is down, timed out or answered with an error.</exception>
    public async Task<IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>>> GetStatsAsync(CancellationToken cancellationToken = default)
    {
        Task<IReadOnlyDictionary<string, string>>[] tasks = Array.ConvertAll(_nodes, node => ExecuteAsync(node, TextRequest.Stats(), read: false, cancellationToken));
        await Task.WhenAll(tasks).ConfigureAwait(false);
        var result = new Dictionary<string, IReadOnlyDictionary<string, string>>(StringComparer.Ordinal);
        for (int i = 0; i < _nodes.Length; i++)
        {
            result[_nodes[i].Name] = await tasks[i].ConfigureAwait(false);
        }

        return result;
    }
}
