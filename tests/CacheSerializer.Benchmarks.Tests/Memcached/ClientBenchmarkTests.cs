using System.Diagnostics;
using CacheSerializer.Benchmarks.Memcached;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;

namespace CacheSerializer.Benchmarks.Tests.Memcached;

/// <summary>The client benchmark's header names the memcached that ran, as the server reports it.</summary>
public sealed class ClientBenchmarkTests
{
    [Fact]
    public async Task ServerVersionAsync_RealMemcached_IsTheVersionTheBinaryReports()
    {
        using var server = MemcachedServer.Start();
        await using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { server.Endpoint } });

        string version = await ClientBenchmark.ServerVersionAsync(client);

        Assert.Equal($"memcached {version}", MemcachedVersionFromTheBinary());
    }

    // What `memcached -V` prints, e.g. "memcached 1.6.18": the same binary MemcachedServer starts.
    private static string MemcachedVersionFromTheBinary()
    {
        using Process process = Process.Start(new ProcessStartInfo(MemcachedServer.FindBinary(), "-V") { RedirectStandardOutput = true, UseShellExecute = false })!;
        string output = process.StandardOutput.ReadToEnd().Trim();
        process.WaitForExit();
        return output;
    }
}
