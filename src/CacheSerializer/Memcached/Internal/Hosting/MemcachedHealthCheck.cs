using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Nodes;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace CacheSerializer.Memcached.Internal.Hosting;

/// <summary>Healthy when every server of one client answers, Degraded when some are down, the registration's failure
/// status when all are; a named client's description starts with its name.</summary>
internal sealed class MemcachedHealthCheck(MemcachedEngine engine, string? clientName = null) : IHealthCheck
{
    private readonly string _prefix = clientName is null ? string.Empty : $"memcached client '{clientName}': ";

    public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(context);
        IReadOnlyList<ServerState> servers = await engine.CheckServersAsync(cancellationToken).ConfigureAwait(false);
        var data = new Dictionary<string, object>(StringComparer.Ordinal);
        foreach (ServerState server in servers)
        {
            data[server.Server] = server.Description;
        }

        int up = servers.Count(static s => s.IsUp);
        string[] down = [.. servers.Where(static s => !s.IsUp).Select(static s => s.Server)];
        if (down.Length == 0)
        {
            return HealthCheckResult.Healthy($"{_prefix}all {servers.Count} memcached servers are up", data);
        }

        string description = $"{_prefix}{up} of {servers.Count} memcached servers are up; down: {string.Join(", ", down)}";
        return up > 0
            ? HealthCheckResult.Degraded(description, data: data)
            : new HealthCheckResult(context.Registration.FailureStatus, description, data: data);
    }
}
