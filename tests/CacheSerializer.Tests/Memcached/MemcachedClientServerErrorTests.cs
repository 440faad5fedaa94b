using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;

namespace CacheSerializer.Tests.Memcached;

/// <summary>Server error replies, against a dedicated server.</summary>
public sealed class MemcachedClientServerErrorTests
{
    [Fact]
    public async Task SetAsync_ServerOutOfMemory_ThrowsServerErrorNamingServerAndOperation()
    {
        // -M: memcached answers "SERVER_ERROR out of memory storing object" instead of evicting.
        using var server = MemcachedServer.Start("-m 2 -M");
        await using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint } });
        byte[] value = new byte[500_000];
        MemcachedException? error = null;
        for (int i = 0; i < 40 && error is null; i++)
        {
            try
            {
                await client.SetAsync($"oom:{i}", value);
            }
            catch (MemcachedException ex)
            {
                error = ex;
            }
        }

        Assert.NotNull(error);
        Assert.Equal(MemcachedErrorKind.ServerError, error.Kind);
        Assert.Equal("set", error.Operation);
        Assert.Equal(server.Endpoint, error.Server);
        Assert.Contains("SERVER_ERROR out of memory storing object", error.Message, StringComparison.Ordinal);
        Assert.True((await client.GetAsync<byte[]>("oom:0")).Found); // the connection is still in step
    }
}
