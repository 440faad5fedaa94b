using System.Diagnostics;
using System.Security.Cryptography.X509Certificates;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using CacheSerializer.Tests.Transcoding;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Tests.Memcached;

/// <summary>TLS against real memcached started with <c>-Z</c> and throwaway certificates: every value, each way a
/// certificate is rejected, mutual TLS, and the connection's behaviour (pipelining, kill and restart, timeout) unchanged.</summary>
public sealed class MemcachedClientTlsTests(CertificatesFixture fixture) : IClassFixture<CertificatesFixture>
{
    private ThrowawayCertificates Certificates => fixture.Certificates;

    [Theory]
    [MemberData(nameof(ClientIntegrationTests.Cases), MemberType = typeof(ClientIntegrationTests))]
    public async Task SetThenGet_EveryKindOfValueOverTls_ComesBackIdenticalBothWays(string name)
    {
        await using var client = new MemcachedClient(fixture.TlsOptions(fixture.SharedTlsServer));

        await ClientIntegrationTests.AssertRoundTripsBothWaysAsync(client, MemcachedServerFixture.UniqueKey("tls-" + name), ClientIntegrationTests.ValueOf(name));
    }

    [Fact]
    public async Task Get_CertificateFromAnotherAuthority_FailsWithTlsHandshakeFailedNamingTheIssuer()
    {
        MemcachedServer server = fixture.SharedTlsServer;
        await using var client = new MemcachedClient(fixture.TlsOptions(server, o => o.Tls.CaCertificatePath = Certificates.OtherCaPath));

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("k"));

        Assert.Equal(MemcachedErrorKind.TlsHandshakeFailed, ex.Kind);
        Assert.Equal(
            $"get on {server.Endpoint}: TLS: the server's certificate 'CN=memcached test server' was rejected: it is not issued by a certificate authority of Tls.CaCertificatePath or Tls.CaCertificates (its issuer is 'CN=CacheSerializer throwaway CA'); trust the CA that issued it.",
            ex.Message);
    }

    [Fact]
    public async Task Get_SystemTrustOnly_ThrowawayAuthorityUntrusted_FailsNamingTheFix()
    {
        MemcachedServer server = fixture.SharedTlsServer;
        await using var client = new MemcachedClient(fixture.TlsOptions(server, o => o.Tls.CaCertificatePath = null));

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("k"));

        Assert.Equal(MemcachedErrorKind.TlsHandshakeFailed, ex.Kind);
        Assert.Equal(
            $"get on {server.Endpoint}: TLS: the server's certificate 'CN=memcached test server' was rejected: it is not issued by a certificate authority the system trusts (its issuer is 'CN=CacheSerializer throwaway CA'); set MemcachedClientOptions.Tls.CaCertificatePath to the PEM file of the CA that issued it.",
            ex.Message);
    }

    [Fact]
    public async Task Get_CertificateForAnotherHost_FailsNamingTheNamesItHolds()
    {
        using MemcachedServer server = fixture.StartTls(Certificates.WrongHostServer);
        await using var client = new MemcachedClient(fixture.TlsOptions(server));

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("k"));

        Assert.Equal(MemcachedErrorKind.TlsHandshakeFailed, ex.Kind);
        Assert.Equal(
            $"get on {server.Endpoint}: TLS: the server's certificate 'CN=cache.other.invalid' was rejected: it is not issued for '127.0.0.1' (it holds DNS:cache.other.invalid); connect by one of those names, or set MemcachedClientOptions.Tls.TargetHost (or tls=<name> on the server entry) to the name it holds.",
            ex.Message);
    }

    [Fact]
    public async Task Get_ServerEntryNamesTheCertificatesHost_Succeeds()
    {
        // Servers listed by address, certificates issued for names: the entry's tls=<name> is the name checked.
        using MemcachedServer server = fixture.StartTls(Certificates.WrongHostServer);
        await using var client = new MemcachedClient(fixture.TlsOptions(server, o =>
        {
            o.Tls.Enabled = false;
            o.Servers[0] = server.Endpoint + " tls=cache.other.invalid";
        }));

        Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync("k", "v"));
        Assert.Equal("v", (await client.GetAsync<string>("k")).Value);
    }

    [Fact]
    public async Task Get_TargetHostOption_IsTheNameChecked()
    {
        await using var client = new MemcachedClient(fixture.TlsOptions(fixture.SharedTlsServer, o => o.Tls.TargetHost = "localhost"));
        string key = MemcachedServerFixture.UniqueKey("tls-target-host");

        Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync(key, "v"));
        Assert.Equal("v", (await client.GetAsync<string>(key)).Value);
    }

    [Fact]
    public async Task Get_ExpiredCertificate_FailsSayingWhenItWasValid()
    {
        using MemcachedServer server = fixture.StartTls(Certificates.ExpiredServer);
        await using var client = new MemcachedClient(fixture.TlsOptions(server));
        using X509Certificate2 certificate = System.Security.Cryptography.X509Certificates.X509CertificateLoader.LoadCertificateFromFile(Certificates.ExpiredServer.CertificatePath);

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("k"));

        Assert.Equal(MemcachedErrorKind.TlsHandshakeFailed, ex.Kind);
        Assert.Equal(
            $"get on {server.Endpoint}: TLS: the server's certificate 'CN=memcached expired server' was rejected: it is not valid now (valid from {certificate.NotBefore.ToUniversalTime():yyyy-MM-dd HH:mm:ss} to {certificate.NotAfter.ToUniversalTime():yyyy-MM-dd HH:mm:ss} UTC); renew the server's certificate.",
            ex.Message);
    }

    [Fact]
    public async Task DangerousAcceptAnyServerCertificate_ExpiredAndUntrusted_ConnectsAndWarnsOnceAtStartUp()
    {
        using MemcachedServer server = fixture.StartTls(Certificates.ExpiredServer);
        var logs = new ListLoggerProvider();
        using ILoggerFactory loggerFactory = LoggerFactory.Create(builder => builder.AddProvider(logs).SetMinimumLevel(LogLevel.Debug));
        await using var client = new MemcachedClient(
            fixture.TlsOptions(server, o =>
            {
                o.Tls.CaCertificatePath = Certificates.OtherCaPath;
                o.Tls.DangerousAcceptAnyServerCertificate = true;
            }),
            loggerFactory);

        Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync("k", "v"));
        Assert.Equal("v", (await client.GetAsync<string>("k")).Value);
        (LogLevel Level, string Message) warning = Assert.Single(logs.Entries, e => e.Message.Contains("DangerousAcceptAnyServerCertificate", StringComparison.Ordinal) && e.Level == LogLevel.Warning);
        Assert.Equal(
            "memcached client: server certificates are NOT validated (MemcachedClientOptions.Tls.DangerousAcceptAnyServerCertificate): the connections are encrypted, but anyone on the network path can impersonate the servers and read or change every cached entry; use it only in tests",
            warning.Message);
    }

    [Fact]
    public async Task MutualTls_ClientCertificateFromPemFiles_RoundTrips()
    {
        using MemcachedServer server = fixture.StartTls(requireClientCertificate: true);
        await using var client = new MemcachedClient(fixture.TlsOptions(server, o =>
        {
            o.Tls.ClientCertificatePath = Certificates.Client.CertificatePath;
            o.Tls.ClientKeyPath = Certificates.Client.KeyPath;
        }));

        Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync("k", "mutual"));
        Assert.Equal("mutual", (await client.GetAsync<string>("k")).Value);
    }

    [Fact]
    public async Task MutualTls_NoClientCertificate_FailsSayingWhichSettingToSet()
    {
        using MemcachedServer server = fixture.StartTls(requireClientCertificate: true);
        await using var client = new MemcachedClient(fixture.TlsOptions(server));

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("k"));

        Assert.Equal(MemcachedErrorKind.TlsHandshakeFailed, ex.Kind);
        Assert.StartsWith($"get on {server.Endpoint}: TLS: the server ended the session right after the handshake (", ex.Message, StringComparison.Ordinal);
        Assert.EndsWith("); it probably requires a client certificate (memcached -o ssl_verify_mode=2 or 3) that the client did not send or that the server does not trust: set MemcachedClientOptions.Tls.ClientCertificatePath to a certificate issued by the server's ssl_ca_cert.", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Tls_PlaintextServer_FailsAskingWhetherTheServerServesTls()
    {
        using var server = MemcachedServer.Start();
        await using var client = new MemcachedClient(fixture.TlsOptions(server));

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("k"));

        Assert.Equal(MemcachedErrorKind.TlsHandshakeFailed, ex.Kind);
        Assert.StartsWith($"get on {server.Endpoint}: TLS: the handshake with '127.0.0.1' failed (", ex.Message, StringComparison.Ordinal);
        Assert.EndsWith("); check that the server is started with TLS (memcached -Z) and accepts TLS 1.2 or 1.3.", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Plaintext_TlsServer_FailsSayingTheServerMayRequireTls_ThenFailsFast()
    {
        // memcached -Z 1.6.18 resets a connection whose first bytes are not a TLS record (or, for a few short ones, waits
        // for the rest of the record, and then the operation timeout says nothing was ever received): either way the
        // error names the fix, and the server is marked down rather than failing call after call on new connections.
        MemcachedServer server = fixture.SharedTlsServer;
        var logs = new ListLoggerProvider();
        using ILoggerFactory loggerFactory = LoggerFactory.Create(builder => builder.AddProvider(logs).SetMinimumLevel(LogLevel.Debug));
        await using var client = new MemcachedClient(
            fixture.TlsOptions(server, o =>
            {
                o.Tls.Enabled = false;
                o.OperationTimeout = TimeSpan.FromSeconds(1);
                o.ServerDownInterval = TimeSpan.FromMinutes(1);
            }),
            loggerFactory);

        MemcachedException ex = await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("k"));
        MemcachedException fast = await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("k"));

        Assert.Contains(ex.Kind, new[] { MemcachedErrorKind.ConnectionBroken, MemcachedErrorKind.Timeout });
        Assert.Contains("if the server requires TLS (memcached -Z), set MemcachedClientOptions.Tls.Enabled", ex.Message, StringComparison.Ordinal);
        Assert.Equal(MemcachedErrorKind.ServerDown, fast.Kind);
        Assert.Contains("if the server requires TLS (memcached -Z), set MemcachedClientOptions.Tls.Enabled", fast.Message, StringComparison.Ordinal);
        Assert.Contains("if the server requires TLS (memcached -Z), set MemcachedClientOptions.Tls.Enabled", Assert.Single(logs.Entries, e => e.Level == LogLevel.Warning).Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ServerEntries_TlsAndNotls_EachServerReachedItsOwnWay()
    {
        MemcachedServer secure = fixture.SharedTlsServer;
        using var plain = MemcachedServer.Start();
        await using var client = new MemcachedClient(fixture.TlsOptions(secure, o => o.Servers.Add(plain.Endpoint + " notls")));
        string[] keys = Enumerable.Range(0, 40).Select(i => MemcachedServerFixture.UniqueKey("tls-mixed-" + i)).ToArray();

        foreach (string key in keys)
        {
            Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync(key, "value-of:" + key));
        }

        foreach (string key in keys)
        {
            Assert.Equal("value-of:" + key, (await client.GetAsync<string>(key)).Value);
        }

        Assert.Contains(keys, k => client.GetServerForKey(k) == plain.Endpoint);
        Assert.Contains(keys, k => client.GetServerForKey(k) == secure.Endpoint);
    }

    [Fact]
    public async Task PipelinedLoad_OverTls_EveryValueReadIsItsKeys()
    {
        // 64 callers on 2 connections, values from 1 byte to 200 KB (many TLS records each): pipelining, batching and
        // the read thread's record reassembly must never hand a caller another key's value.
        await using var client = new MemcachedClient(fixture.TlsOptions(fixture.SharedTlsServer, o => o.OperationTimeout = TimeSpan.FromSeconds(20)));
        string prefix = MemcachedServerFixture.UniqueKey("tls-load");
        int[] sizes = [1, 100, 1000, 10_000, 100_000, 200_000];
        byte[] ValueOf(int key) => Enumerable.Range(0, sizes[key % sizes.Length]).Select(i => (byte)(i + key)).ToArray();
        byte[][] values = Enumerable.Range(0, 60).Select(ValueOf).ToArray();
        int wrong = 0;
        long operations = 0;

        await Task.WhenAll(Enumerable.Range(0, 64).Select(worker => Task.Run(async () =>
        {
            var random = new Random(worker);
            for (int i = 0; i < 150; i++)
            {
                int key = random.Next(values.Length);
                if (random.Next(4) == 0)
                {
                    Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync($"{prefix}:{key}", values[key]));
                }
                else
                {
                    MemcachedGetResult<byte[]> read = await client.GetAsync<byte[]>($"{prefix}:{key}");
                    if (read.Found && !read.Value!.AsSpan().SequenceEqual(values[key]))
                    {
                        Interlocked.Increment(ref wrong);
                    }
                }

                Interlocked.Increment(ref operations);
            }
        }))).WaitAsync(TimeSpan.FromMinutes(2));

        Assert.Equal(0, wrong);
        Assert.Equal(64 * 150, operations);
    }

    [Fact]
    public async Task SetAsync_BurstsOf500PipelinedSetsOverTls_AllStoredWithoutStalling()
    {
        // memcached 1.6.18 leaves the rest of a TLS record it read in part inside OpenSSL and sleeps until more bytes
        // arrive (fixed in 1.6.39): 500 sets batched into 16 KB records cut mid-request stalled until the timeout. Sizes
        // of 100 B, then around the record size and above it, on a fresh server and client, each burst awaited before the next.
        using MemcachedServer server = fixture.StartTls();
        await using var client = new MemcachedClient(fixture.TlsOptions(server, o => o.OperationTimeout = TimeSpan.FromSeconds(5)));
        int[] sizes = [100, 100, 100, 15_000, 100, 16_500, 100, 40_000];
        byte[] ValueOf(int i) => Enumerable.Range(0, i < 1_500 ? 100 : sizes[i % sizes.Length]).Select(b => (byte)(b + i)).ToArray();
        string KeyOf(int i) => $"burst:{i:D10}:".PadRight(64, 'k');

        foreach (int[] burst in Enumerable.Range(0, 3_000).Chunk(500))
        {
            MemcachedStoreResult[] stored = await Task.WhenAll(burst.Select(i => client.SetAsync(KeyOf(i), ValueOf(i)))).WaitAsync(Bound.NotStuck);
            Assert.All(stored, r => Assert.Equal(MemcachedStoreResult.Stored, r));
        }

        MemcachedGetResult<byte[]>[] read = await Task.WhenAll(Enumerable.Range(0, 3_000).Select(i => client.GetAsync<byte[]>(KeyOf(i)))).WaitAsync(Bound.NotStuck);
        Assert.Equal(3_000, Enumerable.Range(0, 3_000).Count(i => read[i].Found && read[i].Value!.AsSpan().SequenceEqual(ValueOf(i))));
    }

    [Fact]
    public async Task ServerKilledAndRestarted_OverTls_RecoversAsPlaintextDoes()
    {
        using MemcachedServer server = fixture.StartTls();
        var logs = new ListLoggerProvider();
        using ILoggerFactory loggerFactory = LoggerFactory.Create(builder => builder.AddProvider(logs).SetMinimumLevel(LogLevel.Debug));
        await using var client = new MemcachedClient(fixture.TlsOptions(server, o => o.OnServerFailure = ServerFailurePolicy.Miss), loggerFactory);
        Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync("outage:k", "before"));

        server.Kill();
        MemcachedStoreResult[] results = await Task.WhenAll(Enumerable.Range(0, 50).Select(i => client.SetAsync($"outage:{i}", "during"))).WaitAsync(Bound.NotStuck);
        MemcachedGetResult<string>[] reads = await Task.WhenAll(Enumerable.Range(0, 50).Select(i => client.GetAsync<string>($"outage:{i}"))).WaitAsync(Bound.NotStuck);
        server.Restart();
        await MemcachedServerFixture.SetUntilStoredAsync(client, "outage:k", "after", "the client uses the restarted server again");

        Assert.All(results, r => Assert.Equal(MemcachedStoreResult.ServerFailure, r));
        Assert.All(reads, r => Assert.False(r.Found));
        Assert.Equal("after", (await client.GetAsync<string>("outage:k")).Value);
        Assert.Equal(LogLevel.Warning, Assert.Single(logs.Entries, e => e.Message.Contains($"memcached server {server.Endpoint} is down", StringComparison.Ordinal)).Level);
        Assert.Equal(LogLevel.Information, Assert.Single(logs.Entries, e => e.Message.Contains($"memcached server {server.Endpoint} is back up", StringComparison.Ordinal)).Level);
    }

    [Fact]
    public async Task ServerFrozen_OverTls_HeartbeatTimesOutThenServerReturns()
    {
        using MemcachedServer server = fixture.StartTls();
        // One connection: a second one, opened in the background after the first call, could still be in its handshake
        // when the server freezes, and its connect timeout would mark the server down instead of the heartbeat.
        await using var client = new MemcachedClient(fixture.TlsOptions(server, o =>
        {
            o.OperationTimeout = TimeSpan.FromSeconds(1);
            o.ConnectionsPerServer = 1;
        }));
        Assert.Equal(MemcachedStoreResult.Stored, await client.SetAsync("frozen:k", "v"));

        server.Pause(); // returns once every thread of memcached is stopped: nothing can answer the get
        MemcachedException ex;
        try
        {
            ex = await Assert.ThrowsAsync<MemcachedException>(() => client.GetAsync<string>("frozen:k")).WaitAsync(Bound.NotStuck);
        }
        finally
        {
            server.Resume();
        }

        Assert.Equal(MemcachedErrorKind.Timeout, ex.Kind);
        Assert.StartsWith($"get on {server.Endpoint}: no reply within 1000 ms (MemcachedClientOptions.OperationTimeout) while awaiting the reply; 1 requests were in flight on the connection", ex.Message, StringComparison.Ordinal);
        var clock = Stopwatch.StartNew();
        while (true)
        {
            try
            {
                Assert.Equal("v", (await client.GetAsync<string>("frozen:k")).Value);
                break;
            }
            catch (MemcachedException) when (clock.Elapsed < Bound.NotStuck)
            {
                await Task.Delay(50);
            }
        }
    }
}
