using CacheSerializer.Memcached.Internal.Deploys;
using CacheSerializer.Memcached.Internal.FailurePolicy;
using CacheSerializer.Memcached.Internal.Nodes;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;
using ServerState = CacheSerializer.Memcached.Internal.Nodes.ServerState;

namespace CacheSerializer.Memcached;

/// <summary>Operations on many keys or on every server.</summary>
public sealed partial class MemcachedClient
{
    /// <inheritdoc/>
    /// <remarks>One pipelined batch of quiet <c>mg</c>s per server, ended by <c>mn</c>, all servers at once.</remarks>
    public async Task<IReadOnlyDictionary<string, T?>> GetManyAsync<T>(IEnumerable<string> keys, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(keys);
        var batches = new Dictionary<MemcachedNode, List<MemcachedKey>>();

        // The caller's key of each encoded one, in the same order, kept only when a key transformer makes them differ.
        Dictionary<MemcachedNode, List<string>>? callerKeys = _settings.KeyTransformer == MemcachedKeyTransformer.None ? null : [];
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (string key in keys)
        {
            ArgumentNullException.ThrowIfNull(key, nameof(keys));
            if (!seen.Add(key))
            {
                continue;
            }

            MemcachedKey encoded = _settings.Key(key);
            MemcachedNode node = Locate(encoded);
            if (!batches.TryGetValue(node, out List<MemcachedKey>? batch))
            {
                batches[node] = batch = [];
                callerKeys?.Add(node, []);
            }

            batch.Add(encoded);
            callerKeys?[node].Add(key);
        }

        var pending = new List<(MemcachedNode Node, List<MemcachedKey> Keys, List<string>? CallerKeys, Task<GetReply[]> Replies)>(batches.Count);
        foreach ((MemcachedNode node, List<MemcachedKey> batch) in batches)
        {
            pending.Add((node, batch, callerKeys?[node], ExecuteAsync(node, new MultiGetRequest(batch, _settings.PooledReads, _returnWin), cancellationToken)));
        }

        // Wait for every batch before reading any, so a failing server's exception is observed with the others.
        await Task.WhenAll(pending.Select(static p => p.Replies)).ConfigureAwait(false);
        var results = new Dictionary<string, T?>(StringComparer.Ordinal);
        List<OtherBuildItem>? otherBuild = null;
        foreach ((MemcachedNode node, List<MemcachedKey> batch, List<string>? callerBatch, Task<GetReply[]> task) in pending)
        {
            GetReply[]? replies = await task.ConfigureAwait(false);
            if (replies is null)
            {
                continue; // the server failed and ServerFailurePolicy.Miss counts its keys as misses
            }

            try
            {
                for (int i = 0; i < replies.Length; i++)
                {
                    if (!replies[i].Hit)
                    {
                        continue;
                    }

                    string callerKey = callerBatch?[i] ?? batch[i].Original;
                    if (TryRead(batch[i], replies[i], out T? value, out TranscoderErrorKind reason))
                    {
                        results[callerKey] = value;
                    }
                    else if (OtherBuildCas(reason, replies[i]) is ulong cas and not 0)
                    {
                        (otherBuild ??= []).Add(new OtherBuildItem(node, batch[i], callerKey, cas));
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

        if (otherBuild is not null)
        {
            await ReadCopiesAsync(otherBuild, results, cancellationToken).ConfigureAwait(false);
        }

        return results;
    }

    /// <summary>Reads this build's copies of the keys whose items another build wrote, one batch per server, into
    /// <paramref name="results"/>; a key without a copy bound to its item is a miss, remembered for the fill.</summary>
    private async Task ReadCopiesAsync<T>(List<OtherBuildItem> items, Dictionary<string, T?> results, CancellationToken cancellationToken)
    {
        uint build = BuildCopies.BuildOf(typeof(T));
        foreach (IGrouping<MemcachedNode, OtherBuildItem> server in items.GroupBy(static i => i.Node))
        {
            OtherBuildItem[] ofServer = [.. server];
            GetReply[]? copies = await ExecuteAsync(server.Key, new MultiGetRequest([.. ofServer.Select(i => i.Key.CopyFor(build))], pooled: false, _returnWin), cancellationToken).ConfigureAwait(false);
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

    /// <summary>A key whose item another build wrote, found by a batch read.</summary>
    private readonly record struct OtherBuildItem(MemcachedNode Node, MemcachedKey Key, string CallerKey, ulong Cas);

    /// <inheritdoc/>
    public Task FlushAllAsync(CancellationToken cancellationToken = default) =>
        Task.WhenAll(Array.ConvertAll(_nodes, node => ExecuteAsync(node, TextRequest.FlushAll(), cancellationToken)));

    /// <summary>Reads the general statistics (<c>stats</c>) of every server.</summary>
    /// <param name="cancellationToken">Cancels the wait.</param>
    /// <returns>For each server (<c>host:port</c>) that answered, its statistics by name (pid, uptime, curr_items,
    /// get_hits, ...); under <see cref="ServerFailurePolicy.Miss"/> a failed server is absent.</returns>
    /// <exception cref="MemcachedException">A server answered with an error, or failed under <see cref="ServerFailurePolicy.Throw"/>.</exception>
    public async Task<IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>>> GetStatsAsync(CancellationToken cancellationToken = default)
    {
        Task<IReadOnlyDictionary<string, string>>[] tasks = Array.ConvertAll(_nodes, node => ExecuteAsync(node, TextRequest.Stats(), cancellationToken));
        await Task.WhenAll(tasks).ConfigureAwait(false);
        var result = new Dictionary<string, IReadOnlyDictionary<string, string>>(StringComparer.Ordinal);
        for (int i = 0; i < _nodes.Length; i++)
        {
            if (await tasks[i].ConfigureAwait(false) is { } stats)
            {
                result[_nodes[i].Name] = stats;
            }
        }

        return result;
    }

    /// <summary>Connects to every server once, at start-up, and returns the refusals of the client's TLS or authentication
    /// settings (a misconfiguration: wrong CA, wrong password, missing credentials...). A server that is down or
    /// unreachable is an outage, not a refusal: it is marked down, logged, and not returned.</summary>
    internal async Task<IReadOnlyList<MemcachedException>> FindRefusalsAsync(CancellationToken cancellationToken)
    {
        using var bounded = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        bounded.CancelAfter(_settings.ConnectTimeout + _settings.OperationTimeout);
        Task<MemcachedException?>[] probes = Array.ConvertAll(_nodes, node => RefusalOfAsync(node, bounded.Token));
        MemcachedException?[] refusals = await Task.WhenAll(probes).ConfigureAwait(false);
        return [.. refusals.OfType<MemcachedException>()];

        static async Task<MemcachedException?> RefusalOfAsync(MemcachedNode node, CancellationToken cancellationToken)
        {
            try
            {
                await node.PingAsync(cancellationToken).ConfigureAwait(false);
                return null;
            }
            catch (MemcachedException ex)
            {
                return Failures.IsRefusal(ex.Kind) ? ex : null;
            }
            catch (OperationCanceledException)
            {
                return null; // no answer within the bound: an outage, which the node handles as any other
            }
        }
    }

    /// <summary>Probes every server for the health check: a server that is up gets <c>mn</c> (outside the failure
    /// policy, so a failure is seen and marks it down as any call would); a server that is down is not contacted.</summary>
    internal async Task<IReadOnlyList<ServerState>> CheckServersAsync(CancellationToken cancellationToken)
    {
        var probes = new Task<ServerState>[_nodes.Length];
        for (int i = 0; i < _nodes.Length; i++)
        {
            probes[i] = ProbeAsync(_nodes[i], cancellationToken);
        }

        return await Task.WhenAll(probes).ConfigureAwait(false);

        static async Task<ServerState> ProbeAsync(MemcachedNode node, CancellationToken cancellationToken)
        {
            if (node.DescribeOutage() is { } outage)
            {
                return new ServerState(node.Name, false, $"down for {outage.DownFor.TotalSeconds:F1} s, next attempt in {outage.NextAttemptIn.TotalMilliseconds:F0} ms: {outage.Reason}");
            }

            try
            {
                TimeSpan took = await node.PingAsync(cancellationToken).ConfigureAwait(false);
                return new ServerState(node.Name, true, $"up ({took.TotalMilliseconds:F1} ms)");
            }
            catch (MemcachedException ex)
            {
                return new ServerState(node.Name, false, $"failing: {ex.Message}");
            }
        }
    }
}
