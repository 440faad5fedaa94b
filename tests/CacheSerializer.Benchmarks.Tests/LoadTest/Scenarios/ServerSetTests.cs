using CacheSerializer.LoadTest.Scenarios;
using CacheSerializer.LoadTest;
using CacheSerializer.LoadTest.Running;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Scenarios;

public sealed class ServerSetTests
{
    [Theory]
    [InlineData("127.0.0.1:11211")]
    [InlineData("127.1.2.3:1")]
    [InlineData("localhost:65535")]
    [InlineData("[::1]:11211")]
    public void CheckLoopback_LoopbackHostAndPort_Accepted(string server)
    {
        ServerSet.CheckLoopback(server);
    }

    [Theory]
    [InlineData("10.0.0.1:11211")]
    [InlineData("example.com:11211")]
    [InlineData("127.0.0.1")]
    [InlineData("127.0.0.1:0")]
    [InlineData("127.0.0.1:70000")]
    [InlineData(":11211")]
    public void CheckLoopback_OtherHostOrBadPort_ThrowsNamingTheRule(string server)
    {
        ArgumentException error = Assert.Throws<ArgumentException>(() => ServerSet.CheckLoopback(server));

        Assert.Equal($"--servers: '{server}' must be host:port with a loopback host (127.0.0.1, [::1] or localhost); the load test only talks to this machine.", error.Message);
    }

    [Fact]
    public void Open_TwoNodes_StartsTwoLoopbackServersAndStopsThemOnDispose()
    {
        var settings = new LoadTestSettings { Nodes = 2, MemoryMegabytes = 64 };
        var servers = ServerSet.Open(settings);
        IReadOnlyList<string> endpoints = servers.Endpoints;

        Assert.True(servers.StartedHere);
        Assert.Equal(2, endpoints.Count);
        Assert.All(endpoints, e => Assert.StartsWith("127.0.0.1:", e, StringComparison.Ordinal));

        servers.Dispose();
        foreach (string endpoint in endpoints)
        {
            using var probe = new System.Net.Sockets.TcpClient();
            Assert.ThrowsAny<System.Net.Sockets.SocketException>(() => probe.Connect(System.Net.IPAddress.Loopback, int.Parse(endpoint[(endpoint.IndexOf(':') + 1)..], System.Globalization.CultureInfo.InvariantCulture)));
        }
    }
}
