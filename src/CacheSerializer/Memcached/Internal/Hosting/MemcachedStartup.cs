using CacheSerializer.Memcached.Internal.Engine;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace CacheSerializer.Memcached.Internal.Hosting;

/// <summary>Builds the client when the host starts, so it logs its servers and settings once at start-up rather than at
/// the first request, and a client that cannot be built (an invalid transcoder option) stops the start; then connects
/// to every server once, so a server that refuses the client's TLS or credentials stops the start too.</summary>
/// <remarks>A server that is down or unreachable at start-up does not stop it: that is a cache outage like any other
/// (logged, its calls miss). The connections wait at most the connect timeout plus the operation timeout, and stay open
/// for the first requests.</remarks>
internal sealed class MemcachedStartup(IServiceProvider services) : IHostedService
{
    /// <exception cref="MemcachedException">A server refused the client's TLS or authentication settings
    /// (<see cref="MemcachedErrorKind.TlsHandshakeFailed"/>, <see cref="MemcachedErrorKind.AuthenticationFailed"/>,
    /// <see cref="MemcachedErrorKind.AuthenticationRequired"/>, <see cref="MemcachedErrorKind.AuthenticationNotEnabled"/>):
    /// the first one; each is also logged as that server's outage.</exception>
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        MemcachedEngine engine = services.GetRequiredService<MemcachedEngine>();
        IReadOnlyList<MemcachedException> refusals = await engine.FindRefusalsAsync(cancellationToken).ConfigureAwait(false);
        if (refusals.Count > 0)
        {
            throw refusals[0];
        }
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
