using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Hosting;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Adds the memcached health check to ASP.NET Core health checks (<c>services.AddHealthChecks().AddMemcached()</c>),
/// one registration per client (<c>.AddKeyedMemcached("sessions")</c> for a named one), so each cluster has its own
/// status, failure status and tags.</summary>
public static class MemcachedHealthCheckBuilderExtensions
{
    /// <summary>The health check's default name.</summary>
    public const string DefaultName = "memcached";

    /// <summary>
    /// Adds a check of the registered <see cref="MemcachedClient"/>'s servers: <see cref="HealthStatus.Healthy"/> when every
    /// server answers, <see cref="HealthStatus.Degraded"/> when some are down, and <paramref name="failureStatus"/> when none
    /// is up. Each server's state (up with its latency, or down with the reason and for how long) is in the result's data.
    /// </summary>
    /// <param name="builder">The health checks builder.</param>
    /// <param name="name">The check's name.</param>
    /// <param name="failureStatus">The status when every server is down; null for <see cref="HealthStatus.Unhealthy"/>.</param>
    /// <param name="tags">Tags to filter checks by (for example "ready").</param>
    /// <param name="timeout">How long the check may take; null for no limit beyond the client's own timeouts.</param>
    /// <returns>The builder.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="builder"/> or <paramref name="name"/> is null.</exception>
    /// <remarks>A server that is up is sent <c>mn</c> (a no-op); a server already marked down is not contacted (its background
    /// probe brings it back). <c>AddMemcached</c> must have registered the client; a named client (<c>AddKeyedMemcached</c>)
    /// has a check of its own: <see cref="AddKeyedMemcached"/>.</remarks>
    public static IHealthChecksBuilder AddMemcached(this IHealthChecksBuilder builder, string name = DefaultName, HealthStatus? failureStatus = null, IEnumerable<string>? tags = null, TimeSpan? timeout = null)
    {
        ArgumentNullException.ThrowIfNull(builder);
        ArgumentNullException.ThrowIfNull(name);
        return builder.Add(new HealthCheckRegistration(
            name,
            static provider => new MemcachedHealthCheck(provider.GetRequiredService<MemcachedEngine>()),
            failureStatus,
            tags,
            timeout));
    }

    /// <summary>
    /// Adds a check of the servers of the <see cref="MemcachedClient"/> named <paramref name="clientName"/>
    /// (<c>AddKeyedMemcached</c>), with the same statuses and data as <see cref="AddMemcached"/>; its description starts
    /// with <c>memcached client 'clientName':</c>.
    /// </summary>
    /// <param name="builder">The health checks builder.</param>
    /// <param name="clientName">The name the client was registered with.</param>
    /// <param name="name">The check's name; null for <c>memcached:clientName</c>.</param>
    /// <param name="failureStatus">The status when every server is down; null for <see cref="HealthStatus.Unhealthy"/>.</param>
    /// <param name="tags">Tags to filter checks by (for example "ready").</param>
    /// <param name="timeout">How long the check may take; null for no limit beyond the client's own timeouts.</param>
    /// <returns>The builder.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="builder"/> or <paramref name="clientName"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="clientName"/> is empty or white space.</exception>
    /// <remarks>The client is looked up when the check first runs (the registrations may come in either order); none
    /// under that name makes the check report <paramref name="failureStatus"/> with an <see cref="InvalidOperationException"/>
    /// saying so.</remarks>
    public static IHealthChecksBuilder AddKeyedMemcached(this IHealthChecksBuilder builder, string clientName, string? name = null, HealthStatus? failureStatus = null, IEnumerable<string>? tags = null, TimeSpan? timeout = null)
    {
        ArgumentNullException.ThrowIfNull(builder);
        ArgumentException.ThrowIfNullOrWhiteSpace(clientName);
        return builder.Add(new HealthCheckRegistration(
            name ?? $"{DefaultName}:{clientName}",
            provider => new MemcachedHealthCheck(provider.GetKeyedService<MemcachedEngine>(clientName), clientName),
            failureStatus,
            tags,
            timeout));
    }
}
