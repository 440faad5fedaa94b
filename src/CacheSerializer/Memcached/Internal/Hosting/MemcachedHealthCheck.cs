using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Nodes;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace CacheSerializer.Memcached.Internal.Hosting;

/// <summary>Healthy when every server of one client answers, Degraded when some are down, the registration's failure
/// status when all are; a named client's description starts with its name.</summary>
/// <param name="engine">The client's engine; null when no client of that name is registered, which the check reports
/// (thrown from <see cref="CheckHealthAsync"/>, the health check service gives the registration's failure status, where
/// thrown from the registration's factory it would fail the whole report).</param>
/// <param name="clientName">The client's name; null for the unnamed client.</param>
internal sealed class MemcachedHealthCheck(MemcachedEngine? engine, string? clientName = null) : IHealthCheck
{
    private readonly string _prefix = clientName is null ? string.Empty : $"memcached client '{clientName}': ";

    public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(context);
        MemcachedEngine client = engine ?? throw new InvalidOperationException(
            $"No memcached client named '{clientName}' is registered: call services.AddKeyedMemcached(\"{clientName}\", ...).");
        IReadOnlyList<ServerState> servers = await client.CheckServersAsync(cancellationToken).ConfigureAwait(false);
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
