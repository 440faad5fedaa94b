using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace CacheSerializer.Memcached.Internal;

/// <summary>Builds the client when the host starts, so it logs its servers and settings once at start-up rather than at
/// the first request, and a client that cannot be built (an invalid transcoder option) stops the start.</summary>
/// <remarks>It opens no connection: a server that is down at start-up is a cache outage like any other, not a failed start.</remarks>
internal sealed class MemcachedStartup(IServiceProvider services) : IHostedService
{
    public Task StartAsync(CancellationToken cancellationToken)
    {
        _ = services.GetRequiredService<MemcachedClient>();
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
