using CacheSerializer.Memcached.Internal.FailurePolicy;
using CacheSerializer.Memcached.Internal.Nodes;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached.Internal.Engine;

// Operations on every server: flush, statistics, and the probes of start-up and of the health check.
internal sealed partial class MemcachedEngine
{
    /// <summary>Sends <c>flush_all</c> to every server at once.</summary>
    internal Task FlushAllAsync(CancellationToken cancellationToken) =>
        Task.WhenAll(Array.ConvertAll(_nodes, node => ExecuteAsync(node, TextRequest.FlushAll(), cancellationToken)));

    /// <summary>Reads the general statistics (<c>stats</c>) of every server; under <see cref="ServerFailurePolicy.Miss"/>
    /// a failed server is absent.</summary>
    /// <param name="group">Null for the general statistics, or a group (<c>settings</c>, <c>slabs</c>, <c>items</c>, ...).</param>
    /// <param name="cancellationToken">Cancels the wait.</param>
    internal async Task<IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>>> GetStatsAsync(CancellationToken cancellationToken, string? group = null)
    {
        Task<IReadOnlyDictionary<string, string>>[] tasks = Array.ConvertAll(_nodes, node => ExecuteAsync(node, TextRequest.Stats(group), cancellationToken));
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
        bounded.CancelAfter(Settings.ConnectTimeout + Settings.OperationTimeout);
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
