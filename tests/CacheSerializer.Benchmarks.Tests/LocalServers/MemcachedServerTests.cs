using CacheSerializer.LocalServers;

namespace CacheSerializer.Benchmarks.Tests.LocalServers;

/// <summary>The memcached launcher's failure: typed, so a harness tells "no server to be had" from any other error
/// without reading the message.</summary>
public sealed class MemcachedServerTests
{
    [Fact]
    public void Start_ArgumentMemcachedRefuses_ThrowsServerUnavailableWithItsOutput()
    {
        ServerUnavailableException refused = Assert.Throws<ServerUnavailableException>(() => MemcachedServer.Start("--no-such-option"));

        Assert.StartsWith("memcached exited at start with code ", refused.Message, StringComparison.Ordinal);
        Assert.Contains("no-such-option", refused.Message, StringComparison.Ordinal);
    }
}
