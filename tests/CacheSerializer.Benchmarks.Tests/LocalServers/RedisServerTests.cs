using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using CacheSerializer.LocalServers;
using CacheSerializer.LocalServers.Internal;

namespace CacheSerializer.Benchmarks.Tests.LocalServers;

/// <summary>The redis-server launcher against the real redis-server on PATH (Debian's, installed by scripts/test.sh).</summary>
public sealed class RedisServerTests : IDisposable
{
    private readonly RedisServer _server = RedisServer.Start();

    [Fact]
    public void Start_RedisServerOnPath_AnswersPingOnItsLoopbackEndpoint()
    {
        Assert.Equal($"127.0.0.1:{_server.Port}", _server.Endpoint);
        Assert.True(_server.IsRunning);
        Assert.Equal("+PONG\r\n", RespProbe.Send(_server.Port, "PING"));
    }

    [Fact]
    public void Start_Default_PersistsNothingAndListensOnLoopbackOnly()
    {
        Assert.Equal("*2\r\n$4\r\nsave\r\n$0\r\n\r\n", RespProbe.Send(_server.Port, "CONFIG", "GET", "save"));
        Assert.Equal("*2\r\n$10\r\nappendonly\r\n$2\r\nno\r\n", RespProbe.Send(_server.Port, "CONFIG", "GET", "appendonly"));
        Assert.Equal("*2\r\n$4\r\nbind\r\n$9\r\n127.0.0.1\r\n", RespProbe.Send(_server.Port, "CONFIG", "GET", "bind"));
        Assert.Equal($"*2\r\n$4\r\nport\r\n${_server.Port.ToString(System.Globalization.CultureInfo.InvariantCulture).Length}\r\n{_server.Port}\r\n", RespProbe.Send(_server.Port, "CONFIG", "GET", "port"));
    }

    [Fact]
    public void Start_ExtraArguments_ReachTheServer()
    {
        using var server = RedisServer.Start("--maxmemory", "1mb");

        Assert.Equal("*2\r\n$9\r\nmaxmemory\r\n$7\r\n1048576\r\n", RespProbe.Send(server.Port, "CONFIG", "GET", "maxmemory"));
    }

    [Fact]
    public void Start_SetThenGet_ReturnsTheValue()
    {
        string key = "redis-server-test:" + Guid.NewGuid().ToString("N");

        Assert.Equal("+OK\r\n", RespProbe.Send(_server.Port, "SET", key, "value-1"));
        Assert.Equal("$7\r\nvalue-1\r\n", RespProbe.Send(_server.Port, "GET", key));
    }

    [Fact]
    public void Start_TwoServers_OwnPortsAndProcesses()
    {
        using var other = RedisServer.Start();
        string key = "redis-server-test:" + Guid.NewGuid().ToString("N");

        Assert.NotEqual(_server.Port, other.Port);
        Assert.NotEqual(_server.ProcessId, other.ProcessId);
        Assert.Equal("+OK\r\n", RespProbe.Send(other.Port, "SET", key, "x"));
        Assert.Equal("$-1\r\n", RespProbe.Send(_server.Port, "GET", key));
    }

    [Fact]
    public async Task Pause_Running_AnswersNothingUntilResumeThenAnswersThePendingPing()
    {
        _server.Pause();
        Task<string> ping = Task.Run(() => RespProbe.Send(_server.Port, "PING"));
        await Task.Delay(300);
        bool answeredWhileFrozen = ping.IsCompleted;

        _server.Resume();

        Assert.False(answeredWhileFrozen);
        Assert.Equal("+PONG\r\n", await ping.WaitAsync(TimeSpan.FromSeconds(10)));
    }

    [Fact]
    public void ProcessId_Running_IsTheRedisServerListeningOnThePort()
    {
        using var process = Process.GetProcessById(_server.ProcessId);

        Assert.Equal("redis-server", File.ReadAllText($"/proc/{_server.ProcessId}/comm").TrimEnd('\n'));
        Assert.True(LoopbackPort.IsListenedBy(_server.Port, process));
        Assert.True(_server.TotalProcessorTime >= TimeSpan.Zero);
    }

    [Fact]
    public void Dispose_Running_ProcessEndsAndThePortRefusesConnections()
    {
        var server = RedisServer.Start();
        int port = server.Port;

        server.Dispose();

        Assert.False(server.IsRunning);
        Assert.Equal("redis-server on port " + port + " is not running", Assert.Throws<InvalidOperationException>(() => server.ProcessId).Message);
        using var probe = new TcpClient();
        SocketException refused = Assert.Throws<SocketException>(() => probe.Connect(IPAddress.Loopback, port));
        Assert.Equal(SocketError.ConnectionRefused, refused.SocketErrorCode);
        server.Dispose(); // a second dispose does nothing
    }

    [Fact]
    public void FindBinary_NotOnPath_FailsWithTheInstallCommand()
    {
        string empty = Directory.CreateTempSubdirectory("cacheserializer-path-").FullName;
        try
        {
            ServerUnavailableException missing = Assert.Throws<ServerUnavailableException>(() => RedisServer.FindBinary(empty));

            Assert.Equal(
                "redis-server was not found on PATH; the client benchmark's StackExchange.Redis contender and its tests need a real server. Install it: apt-get update && apt-get install -y redis-server",
                missing.Message);
        }
        finally
        {
            Directory.Delete(empty);
        }
    }

    public void Dispose() => _server.Dispose();
}
