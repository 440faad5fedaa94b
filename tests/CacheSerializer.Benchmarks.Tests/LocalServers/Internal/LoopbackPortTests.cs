using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using CacheSerializer.LocalServers;
using CacheSerializer.LocalServers.Internal;

namespace CacheSerializer.Benchmarks.Tests.LocalServers.Internal;

/// <summary>The check the launchers rely on when another process takes a chosen port first.</summary>
public sealed class LoopbackPortTests
{
    [Fact]
    public void IsListenedBy_ListenerOfThisProcess_TrueForThisProcessFalseForAnother()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        int port = ((IPEndPoint)listener.LocalEndpoint).Port;
        using var other = RedisServer.Start();
        using var self = Process.GetCurrentProcess();
        using var redis = Process.GetProcessById(other.ProcessId);

        Assert.True(LoopbackPort.IsListenedBy(port, self));
        Assert.False(LoopbackPort.IsListenedBy(port, redis));
    }

    [Fact]
    public void IsListenedBy_NothingListens_False()
    {
        int port = LoopbackPort.Free();
        using var self = Process.GetCurrentProcess();

        Assert.False(LoopbackPort.IsListenedBy(port, self));
    }

    [Fact]
    public void Free_OnLinux_IsBelowTheEphemeralRangeAndBindable()
    {
        // Below the range the kernel hands to outgoing connections, so a server restarted on its port (a fault test)
        // never finds it taken by a connection another test opened meanwhile.
        int ephemeralStart = int.Parse(File.ReadAllText("/proc/sys/net/ipv4/ip_local_port_range").Split('\t', ' ')[0]);

        int[] ports = Enumerable.Range(0, 20).Select(_ => LoopbackPort.Free()).ToArray();

        Assert.All(ports, port => Assert.InRange(port, 10_000, ephemeralStart - 1));
        using var listener = new TcpListener(IPAddress.Loopback, ports[0]);
        listener.Start();
        Assert.Equal(ports[0], ((IPEndPoint)listener.LocalEndpoint).Port);
    }
}
