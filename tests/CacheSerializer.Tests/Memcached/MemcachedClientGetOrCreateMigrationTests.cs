using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.Tests.Memcached;

/// <summary>
/// <see cref="MemcachedClient.GetOrCreateAsync{T}"/> and <see cref="MemcachedClient.InvalidateAsync"/> in the migration
/// phase from EnyimMemcachedCore (objects written as its DefaultTranscoder writes them), beside an old web server's reads
/// rebuilt from its source (<see cref="EnyimReader"/>): what the new servers leave under a value key is a value or
/// nothing (docs/client.md, "In the migration phase"), while one factory call per change and the wins of deletes and
/// overwrites hold among them. Real memcached; factories held on signals, never on fixed sleeps.
/// </summary>
[Collection(MemcachedCollection.Name)]
public sealed class MemcachedClientGetOrCreateMigrationTests(MemcachedServerFixture fixture) : IDisposable
{
    private static readonly GetOrCreateOptions Options = new() { Expiration = TimeSpan.FromMinutes(5), LockTimeout = TimeSpan.FromMinutes(1) };

    private readonly List<MemcachedClient> _clients = [];

    public void Dispose()
    {
        foreach (MemcachedClient client in _clients)
        {
            client.Dispose();
        }
    }

    [Fact]
    public async Task GetOrCreateAsync_MigrationPhaseHeldFactory_OldReaderSeesNoItemUntilTheValue()
    {
        MemcachedClient client = NewServer();
        string key = MemcachedServerFixture.UniqueKey("migration-held");
        await using var old = new EnyimReader(fixture.Primary.Endpoint);

        (Task<Product> call, TaskCompletionSource release) = await HeldCallAsync(client, key, new Product(7, "new", 2));

        Assert.Equal((false, null), await old.GetAsync<Product>(key));
        Assert.True((await LeaseAsync(client, key)).IsPlaceholder); // the lease is held beside the key
        release.SetResult();
        Assert.Equal(new Product(7, "new", 2), await call.WaitAsync(Bound.NotStuck));

        Assert.Equal((true, new Product(7, "new", 2)), await old.GetAsync<Product>(key));
        Assert.False((await LeaseAsync(client, key)).IsPlaceholder); // released once the value is stored
    }

    [Fact]
    public async Task GetOrCreateAsync_MigrationPhaseFiveServersFortyCallersOnAMiss_OneFactoryCallAndOldReaderSeesOnlyTheValue()
    {
        MemcachedClient[] farm = [.. Enumerable.Range(0, 5).Select(_ => NewServer())];
        string key = MemcachedServerFixture.UniqueKey("migration-farm");
        await using var old = new EnyimReader(fixture.Primary.Endpoint);
        using var stop = new CancellationTokenSource();
        Task<List<Product?>> watched = old.WatchAsync<Product>(key, stop.Token);
        int calls = 0;

        Task<Product>[] callers = [.. farm.SelectMany(server => Enumerable.Range(0, 40).Select(_ => server.GetOrCreateAsync(key, async _ =>
        {
            Interlocked.Increment(ref calls);

            // Held until every server has its callers waiting on the key, so that all 200 are in the miss.
            await Poll.UntilAsync(() => farm.All(s => s.Engine.Leases.FlightCount == 1), "every server waiting");
            return new Product(1, "filled", 1);
        }, Options)))];
        Product[] results = await Task.WhenAll(callers).WaitAsync(Bound.Burst);
        await stop.CancelAsync();
        List<Product?> seen = await watched;

        Assert.Equal(1, calls);
        Assert.All(results, r => Assert.Equal(new Product(1, "filled", 1), r));
        Assert.All(seen, v => Assert.Equal(new Product(1, "filled", 1), v));
    }

    [Fact]
    public async Task InvalidateAsync_MigrationPhase_DeletesTheValueAndTheNextCallCreatesIt()
    {
        MemcachedClient[] farm = [NewServer(), NewServer()];
        string key = MemcachedServerFixture.UniqueKey("migration-invalidate");
        await using var old = new EnyimReader(fixture.Primary.Endpoint);
        Assert.Equal(new Product(1, "v1", 1), await farm[0].GetOrCreateAsync(key, _ => Task.FromResult(new Product(1, "v1", 1)), Options));

        Assert.True(await farm[1].InvalidateAsync(key, new GetOrCreateOptions { StaleWhileRevalidate = TimeSpan.FromMinutes(1) }));

        // Deleted, never marked stale: an old reader would take a stale item for a fresh value.
        Assert.Equal((false, null), await old.GetAsync<Product>(key));
        Assert.False(await farm[1].InvalidateAsync(key));
        Assert.Equal(new Product(1, "v2", 2), await farm[0].GetOrCreateAsync(key, _ => Task.FromResult(new Product(1, "v2", 2)), Options));
        Assert.Equal((true, new Product(1, "v2", 2)), await old.GetAsync<Product>(key));
    }

    [Fact]
    public async Task InvalidateAsync_MigrationPhaseWhileAFactoryIsHeld_ItsValueIsReturnedAndNeverStored()
    {
        MemcachedClient[] farm = [NewServer(), NewServer()];
        string key = MemcachedServerFixture.UniqueKey("migration-invalidate-held");
        await using var old = new EnyimReader(fixture.Primary.Endpoint);
        using var stop = new CancellationTokenSource();
        Task<List<Product?>> watched = old.WatchAsync<Product>(key, stop.Token);
        (Task<Product> call, TaskCompletionSource release) = await HeldCallAsync(farm[0], key, new Product(1, "loaded before the update", 1));

        Assert.False(await farm[1].InvalidateAsync(key)); // no value yet: the lease beside it goes
        release.SetResult();

        Assert.Equal(new Product(1, "loaded before the update", 1), await call.WaitAsync(Bound.NotStuck));
        await stop.CancelAsync();
        Assert.Empty(await watched);
        Assert.Equal(new Product(1, "after", 2), await farm[1].GetOrCreateAsync(key, _ => Task.FromResult(new Product(1, "after", 2)), Options));
    }

    [Fact]
    public async Task GetOrCreateAsync_MigrationPhaseOldServerSetsWhileAFactoryIsHeld_TheOldServersValueStays()
    {
        MemcachedClient client = NewServer();
        MemcachedClient oldWriter = NewServer();
        string key = MemcachedServerFixture.UniqueKey("migration-old-set");
        await using var old = new EnyimReader(fixture.Primary.Endpoint);
        (Task<Product> call, TaskCompletionSource release) = await HeldCallAsync(client, key, new Product(1, "loaded before the update", 1));

        Assert.Equal(MemcachedStoreResult.Stored, await oldWriter.SetAsync(key, new Product(1, "the old server's update", 2)));
        release.SetResult();

        Assert.Equal(new Product(1, "loaded before the update", 1), await call.WaitAsync(Bound.NotStuck));
        Assert.Equal((true, new Product(1, "the old server's update", 2)), await old.GetAsync<Product>(key));
        Assert.False((await LeaseAsync(client, key)).IsPlaceholder);
    }

    [Fact]
    public async Task GetOrCreateAsync_MigrationPhaseOldServerDeletesDuringAHeldRefresh_TheDeleteWins()
    {
        MemcachedClient client = NewServer();
        MemcachedClient oldWriter = NewServer();
        string key = MemcachedServerFixture.UniqueKey("migration-old-delete");
        await using var old = new EnyimReader(fixture.Primary.Endpoint);
        var refreshing = new GetOrCreateOptions { Expiration = TimeSpan.FromSeconds(30), EarlyRefresh = 0.9, LockTimeout = TimeSpan.FromMinutes(1) };
        Assert.Equal(new Product(1, "v1", 1), await client.GetOrCreateAsync(key, _ => Task.FromResult(new Product(1, "v1", 1)), refreshing));
        await Poll.UntilAsync(async () => (await client.Engine.Reads.GetRawAsync(key, CancellationToken.None, ttl: true)).Ttl < 27, "the early-refresh window (R27)");
        using var meters = ClientMeterListener.ForPort(fixture.Primary.Port, "db.client.operation.duration");

        // The call returns the current value at once; its factory is the refresh behind it.
        (Task<Product> call, TaskCompletionSource release) = await HeldCallAsync(client, key, new Product(1, "loaded before the update", 1), refreshing);
        Assert.True(await oldWriter.DeleteAsync(key));
        release.SetResult();

        Assert.Equal(new Product(1, "v1", 1), await call);
        await Poll.UntilAsync(() => meters.Of("db.client.operation.duration").Any(static m => (string?)m.Tag("db.operation.name") == "cas"), "the refresh's store");
        Assert.Equal(["not_found"], meters.Of("db.client.operation.duration").Where(static m => (string?)m.Tag("db.operation.name") == "cas").Select(static m => (string?)m.Tag("cacheserializer.memcached.outcome")));
        Assert.Equal((false, null), await old.GetAsync<Product>(key));
    }

    [Fact]
    public async Task GetOrCreateAsync_MigrationPhaseOldServerDeletesAnAbsentKeyDuringAHeldFactory_NoTraceSoTheValueIsStored()
    {
        // The limit of the phase (docs/client.md, "In the migration phase"): a delete of a key that holds nothing leaves
        // nothing in memcached for the fill to lose against, as with EnyimMemcachedCore's own GetValueOrCreateAsync.
        MemcachedClient client = NewServer();
        MemcachedClient oldWriter = NewServer();
        string key = MemcachedServerFixture.UniqueKey("migration-old-delete-absent");
        await using var old = new EnyimReader(fixture.Primary.Endpoint);
        (Task<Product> call, TaskCompletionSource release) = await HeldCallAsync(client, key, new Product(1, "loaded before the update", 1));

        Assert.False(await oldWriter.DeleteAsync(key));
        release.SetResult();

        Assert.Equal(new Product(1, "loaded before the update", 1), await call.WaitAsync(Bound.NotStuck));
        Assert.Equal((true, new Product(1, "loaded before the update", 1)), await old.GetAsync<Product>(key));
    }

    [Fact]
    public async Task GetOrCreateAsync_MigrationPhaseAfterAFlippedServersItem_ItsDeleteOfTheAbsentKeyWinsOverTheHeldFactory()
    {
        // During the flip, flipped servers delete with a plain DeleteAsync, which leaves no trace on a key that holds
        // nothing: a fill beside the key would add the value its factory loaded before the delete (the load test's
        // migration scenario counted these as stale values during the flip). Once this client has read a flipped
        // server's item, it leases under the key, and the delete removes that placeholder.
        MemcachedClient flipped = fixture.CreateClient();
        _clients.Add(flipped);
        MemcachedClient client = NewServer();
        string written = MemcachedServerFixture.UniqueKey("migration-flip-seen");
        string key = MemcachedServerFixture.UniqueKey("migration-flip-delete-absent");
        Assert.Equal(MemcachedStoreResult.Stored, await flipped.SetAsync(written, new Product(2, "written by a flipped server", 1)));
        Assert.Equal(new Product(2, "written by a flipped server", 1), await client.GetOrCreateAsync(written, _ => Task.FromResult(new Product(2, "a factory's", 0)), Options));
        (Task<Product> call, TaskCompletionSource release) = await HeldCallAsync(client, key, new Product(1, "loaded before the update", 1));

        Assert.True(await flipped.DeleteAsync(key));
        release.SetResult();

        Assert.Equal(new Product(1, "loaded before the update", 1), await call.WaitAsync(Bound.NotStuck));
        Assert.False((await flipped.GetAsync<Product>(key)).Found);
        Assert.False((await LeaseAsync(client, key)).IsPlaceholder);
    }

    [Fact]
    public async Task GetOrCreateAsync_MigrationPhaseEntryAFlippedServerInvalidated_NotServedButCreatedOnce()
    {
        // During the flip, servers already writing protobuf mark entries stale; the ones still in the migration phase must
        // not serve them (no stale window here) and replace them once between them.
        MemcachedClient flipped = fixture.CreateClient();
        _clients.Add(flipped);
        MemcachedClient[] farm = [NewServer(), NewServer()];
        string key = MemcachedServerFixture.UniqueKey("migration-flip-stale");
        Assert.Equal(new Product(1, "v1", 1), await farm[0].GetOrCreateAsync(key, _ => Task.FromResult(new Product(1, "v1", 1)), Options));
        Assert.True(await flipped.InvalidateAsync(key));
        int calls = 0;

        Product[] results = await Task.WhenAll(farm.Select(server => server.GetOrCreateAsync(key, async _ =>
        {
            Interlocked.Increment(ref calls);
            await Task.Yield();
            return new Product(1, "v2", 2);
        }, Options))).WaitAsync(Bound.NotStuck);

        Assert.Equal(1, calls);
        Assert.All(results, r => Assert.Equal(new Product(1, "v2", 2), r));
        Assert.Equal(new Product(1, "v2", 2), await flipped.GetValueAsync<Product>(key));
    }

    [Fact]
    public async Task GetOrCreateAsync_AfterTheFlip_LeasesOnTheKeyItself()
    {
        MemcachedClient client = fixture.CreateClient();
        _clients.Add(client);
        string key = MemcachedServerFixture.UniqueKey("flipped-held");
        await using var old = new EnyimReader(fixture.Primary.Endpoint);
        (Task<Product> call, TaskCompletionSource release) = await HeldCallAsync(client, key, new Product(1, "v1", 1));

        // What an EnyimMemcachedCore reader would take for a value that is null: why the migration phase leases beside it.
        Assert.Equal((true, null), await old.GetAsync<Product>(key));
        release.SetResult();
        Assert.Equal(new Product(1, "v1", 1), await call.WaitAsync(Bound.NotStuck));
        Assert.False(client.Engine.Settings.MigrationPhase);
    }

    [Theory]
    [InlineData(null, false, true)]
    [InlineData(null, true, true)]
    [InlineData("EnyimBson", true, true)]
    [InlineData("Protobuf", false, false)]
    [InlineData("Protobuf", true, false)]
    public async Task MigrationPhase_EnyimSection_OnUntilObjectFormatIsProtobufEvenWithTheTranscoderWrapped(string? objectFormat, bool wrapped, bool expected)
    {
        var values = new Dictionary<string, string?>
        {
            ["enyimMemcached:Servers:0:Address"] = "127.0.0.1",
            ["enyimMemcached:Servers:0:Port"] = fixture.Primary.Port.ToString(System.Globalization.CultureInfo.InvariantCulture),
        };
        if (objectFormat is not null)
        {
            values["enyimMemcached:ProtobufTranscoder:ObjectFormat"] = objectFormat;
        }

        IServiceCollection services = new ServiceCollection()
            .AddMemcached(new ConfigurationBuilder().AddInMemoryCollection(values).Build().GetSection("enyimMemcached"));
        if (wrapped)
        {
            services.PostConfigure<MemcachedClientOptions>(static o => o.Transcoder = new Wrapping(o.Transcoder!));
        }

        await using ServiceProvider provider = services.BuildServiceProvider();

        Assert.Equal(expected, provider.GetRequiredService<MemcachedClient>().Engine.Settings.MigrationPhase);
    }

    [Theory]
    [InlineData(TranscoderObjectFormat.EnyimBson, true)]
    [InlineData(TranscoderObjectFormat.Protobuf, false)]
    public void MigrationPhase_ProtobufTranscoderSetInCode_FollowsItsObjectFormat(TranscoderObjectFormat objectFormat, bool expected)
    {
        using MemcachedClient client = fixture.CreateClient(configure: o => o.Transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { ObjectFormat = objectFormat }));

        Assert.Equal(expected, client.Engine.Settings.MigrationPhase);
    }

    /// <summary>A new web server in the migration phase: objects written as EnyimMemcachedCore's DefaultTranscoder writes them.</summary>
    private MemcachedClient NewServer()
    {
        MemcachedClient client = fixture.CreateClient(configure: static o =>
            o.Transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { ObjectFormat = TranscoderObjectFormat.EnyimBson }));
        Assert.True(client.Engine.Settings.MigrationPhase);
        _clients.Add(client);
        return client;
    }

    /// <summary>Starts a call whose factory is held until the returned source is completed, and waits until it runs.</summary>
    private static async Task<(Task<Product> Call, TaskCompletionSource Release)> HeldCallAsync(MemcachedClient client, string key, Product value, GetOrCreateOptions? options = null)
    {
        var entered = new TaskCompletionSource();
        var release = new TaskCompletionSource();
        Task<Product> call = client.GetOrCreateAsync(key, async _ =>
        {
            entered.SetResult();
            await release.Task;
            return value;
        }, options ?? Options);
        await entered.Task.WaitAsync(Bound.NotStuck);
        return (call, release);
    }

    /// <summary>Reads the key's lease key beside it (a plain read: it creates nothing).</summary>
    private static Task<GetReply> LeaseAsync(MemcachedClient client, string key)
    {
        MemcachedKey lease = client.Engine.Key(key).LeaseFor();
        return client.Engine.ExecuteAsync(lease, GetRequest.Gets(lease, pooled: false, client.Engine.GetRequests), CancellationToken.None);
    }

    public sealed record Product(int Id, string? Name, int Version);

    /// <summary>An application's wrapper around the transcoder a section built (as the load test's counting one).</summary>
    private sealed class Wrapping(ITranscoder inner) : ITranscoder
    {
        public CacheItem Serialize(object? value) => inner.Serialize(value);

        public object? Deserialize(CacheItem item) => inner.Deserialize(item);

        public T? Deserialize<T>(CacheItem item) => inner.Deserialize<T>(item);
    }
}
