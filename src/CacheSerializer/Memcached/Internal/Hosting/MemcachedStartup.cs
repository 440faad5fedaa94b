using CacheSerializer.Memcached.Internal.Engine;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace CacheSerializer.Memcached.Internal.Hosting;

/// <summary>Builds every registered client (the unnamed one and each named one) when the host starts, so each logs its
/// servers and settings once at start-up rather than at the first request, and a client that cannot be built (an
/// invalid transcoder option) stops the start; then connects to every server of every client once, so a server that
/// refuses a client's TLS or credentials stops the start too.</summary>
/// <remarks>A server that is down or unreachable at start-up does not stop it: that is a cache outage like any other
/// (logged, its calls miss). The clients are built in registration order (their log lines follow it) and probed
/// together, so the start waits at most one connect timeout plus one operation timeout however many clusters are down;
/// the connections stay open for the first requests.</remarks>
internal sealed class MemcachedStartup(IServiceProvider services) : IHostedService
{
    /// <exception cref="MemcachedException">A server refused a client's TLS or authentication settings
    /// (<see cref="MemcachedErrorKind.TlsHandshakeFailed"/>, <see cref="MemcachedErrorKind.AuthenticationFailed"/>,
    /// <see cref="MemcachedErrorKind.AuthenticationRequired"/>, <see cref="MemcachedErrorKind.AuthenticationNotEnabled"/>):
    /// the first one, in registration order; each is also logged as that server's outage.</exception>
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        MemcachedEngine[] engines = [.. services.GetServices<MemcachedRegistration>().Select(r => r.Engine(services))];
        IReadOnlyList<MemcachedException>[] refusals = await Task.WhenAll(engines.Select(e => e.FindRefusalsAsync(cancellationToken))).ConfigureAwait(false);
        if (refusals.SelectMany(static r => r).FirstOrDefault() is { } first)
        {
            throw first;
        }
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
