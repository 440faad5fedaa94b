using System.Globalization;
using System.Text;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.Caching.Distributed;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.Tests.Memcached;

/// <summary>
/// <c>IDistributedCache</c> across the switch from EnyimMemcachedCore, on three real servers: the items each phase
/// writes, against those EnyimMemcachedCore's <c>IDistributedCache</c> writes (cnblogs/EnyimMemcachedCore at
/// e383c4c742190da94007579ccb7377443021a7eb, src/Enyim.Caching/DistributedCache.cs, rebuilt in
/// <see cref="EnyimDistributedCacheEmulation"/>), and sliding across old and new servers. "old" is that emulation,
/// "migration" the package bound from the same section (objects still written as EnyimMemcachedCore writes them),
/// "flipped" the same section with <c>ProtobufTranscoder:ObjectFormat</c> <c>Protobuf</c>.
/// </summary>
[Collection(MemcachedCollection.Name)]
public sealed class MemcachedDistributedCacheEnyimTests : IDisposable
{
    private static readonly byte[] Value = [0, 1, 2, 0x7F, 0x80, 0xFE, 0xFF, 42];
    private static readonly TimeSpan Window = TimeSpan.FromSeconds(100);

    private readonly ServiceProvider _old;
    private readonly ServiceProvider _migration;
    private readonly ServiceProvider _flipped;
    private readonly EnyimDistributedCacheEmulation _oldCache;

    public MemcachedDistributedCacheEnyimTests(MemcachedServerFixture fixture)
    {
        _old = new ServiceCollection().AddEnyimSectionClient(fixture.Servers).BuildServiceProvider();
        _migration = new ServiceCollection().AddEnyimSectionClient(fixture.Servers).BuildServiceProvider();
        _flipped = new ServiceCollection().AddEnyimSectionClient(fixture.Servers, EnyimSectionServices.Flipped).BuildServiceProvider();
        _oldCache = new EnyimDistributedCacheEmulation(_old.GetRequiredService<IMemcachedClient>());
    }

    public void Dispose()
    {
        _old.Dispose();
        _migration.Dispose();
        _flipped.Dispose();
    }

    /// <summary>What is stored under a key: its flags, bytes and remaining TTL in seconds (-1: none).</summary>
    private sealed record Stored(bool Hit, uint Flags, byte[] Data, long Ttl);

    /// <summary>The engine of the migration-phase client: its placement is EnyimMemcachedCore's, as every client's here.</summary>
    private MemcachedEngine Engine => _migration.GetRequiredService<MemcachedEngine>();

    private IDistributedCache Cache(string phase) => phase switch
    {
        "old" => _oldCache,
        "migration" => _migration.GetRequiredService<IDistributedCache>(),
        "flipped" => _flipped.GetRequiredService<IDistributedCache>(),
        _ => throw new ArgumentOutOfRangeException(nameof(phase), phase, "old, migration or flipped"),
    };

    private async Task<Stored> RawAsync(string key)
    {
        GetReply reply = await Engine.Reads.GetRawAsync(key, CancellationToken.None, ttl: true);
        return new Stored(reply.Hit, reply.Item.Flags, reply.Hit ? reply.Item.Data.ToArray() : [], reply.Ttl);
    }

    private static string Companion(string key) => EnyimDistributedCacheEmulation.Companion(key);

    /// <summary>Runs the same calls on an old server's cache and on the migration phase's, each on a key of its own.</summary>
    private async Task<(string Old, string New)> OnOldAndMigrationAsync(string name, Func<IDistributedCache, string, Task> calls)
    {
        string oldKey = MemcachedServerFixture.UniqueKey(name + "-old");
        string newKey = MemcachedServerFixture.UniqueKey(name + "-new");
        await calls(Cache("old"), oldKey);
        await calls(Cache("migration"), newKey);
        return (oldKey, newKey);
    }

    /// <summary>A TTL up to 30 days: memcached counts whole seconds, and a loaded machine is late. One past 30 days is
    /// checked against the clocks (<see cref="AssertTtlAt"/>).</summary>
    private static void AssertTtl(long expected, long actual)
    {
        Assert.True(expected <= 30 * 86400, "a TTL past 30 days is checked against memcached's clock (AssertTtlAt)");
        Assert.InRange(actual, expected - 3, expected);
    }

    [Fact]
    public async Task EnyimSectionClient_ByteArrayAndString_WrittenAsDefaultTranscoderWritesThem()
    {
        // What the emulation of the old server stands on. DefaultTranscoder (src/Enyim.Caching/Memcached/Transcoders/
        // DefaultTranscoder.cs at e383c4c) writes a byte[] under RawDataFlag 0xfa52 as it is, and a string under
        // TypeCodeToFlag(TypeCode.String) = 18 | 0x0100 as Encoding.UTF8.GetBytes; its MessagePack, BinaryFormatter
        // and DataContract transcoders derive from it and override only the object path.
        IMemcachedClient client = _old.GetRequiredService<IMemcachedClient>();
        string bytesKey = MemcachedServerFixture.UniqueKey("enyim-bytes");
        string textKey = MemcachedServerFixture.UniqueKey("enyim-text");

        await client.SetAsync(bytesKey, Value);
        await client.SetAsync(textKey, "00:01:40");

        Stored bytes = await RawAsync(bytesKey);
        Assert.Equal(0xFA52u, bytes.Flags);
        Assert.Equal(Value, bytes.Data);
        Stored text = await RawAsync(textKey);
        Assert.Equal(0x0112u, text.Flags);
        Assert.Equal("00:01:40"u8.ToArray(), text.Data);
    }

    public static TheoryData<string, long, string?> EnyimExpirations => new()
    {
        // options, the entry's TTL, the companion's text (null: no companion)
        { "sliding", 100, "00:01:40" },
        { "relative", 100, null },
        { "absolute", 100, null },
        { "none", -1, null },
        { "sliding 40 days", 40 * 86400, "40.00:00:00" },
    };

    private static DistributedCacheEntryOptions Options(string name) => name switch
    {
        "sliding" => new() { SlidingExpiration = Window },
        "relative" => new() { AbsoluteExpirationRelativeToNow = Window },
        "absolute" => new() { AbsoluteExpiration = DateTimeOffset.UtcNow + Window },
        "none" => new(),
        "sliding 40 days" => new() { SlidingExpiration = TimeSpan.FromDays(40) },
        _ => throw new ArgumentOutOfRangeException(nameof(name), name, "an expiration case"),
    };

    [Theory]
    [MemberData(nameof(EnyimExpirations))]
    public async Task SetAsync_MigrationPhase_StoresTheItemsEnyimMemcachedCoreStores(string options, long ttl, string? window)
    {
        Clocks before = await ClocksAsync();
        (string oldKey, string newKey) = await OnOldAndMigrationAsync("dc-set", (cache, key) => cache.SetAsync(key, Value, Options(options)));
        string[] keys = [oldKey, newKey, Companion(oldKey), Companion(newKey)];
        Stored[] stored = [.. await Task.WhenAll(keys.Select(RawAsync))];
        Clocks after = await ClocksAsync();

        for (int i = 0; i < 2; i++)
        {
            Stored entry = stored[i];
            Assert.Equal((true, 0xFA52u), (entry.Hit, entry.Flags));
            Assert.Equal(Value, entry.Data);
            AssertTtlAt(keys[i], ttl, entry.Ttl, before, after);
            Stored companion = stored[i + 2];
            Assert.Equal(window is not null, companion.Hit);
            if (window is not null)
            {
                Assert.Equal(0x0112u, companion.Flags);
                Assert.Equal(Encoding.UTF8.GetBytes(window), companion.Data);
                AssertTtlAt(keys[i + 2], ttl, companion.Ttl, before, after);
            }
        }
    }

    /// <summary>The client's Unix time in whole seconds, and each server's own (<c>stats</c> <c>time</c>), read together.</summary>
    private sealed record Clocks(long Client, IReadOnlyDictionary<string, long> Servers);

    private async Task<Clocks> ClocksAsync()
    {
        long client = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>> stats = await Engine.GetStatsAsync(CancellationToken.None);
        return new Clocks(client, stats.ToDictionary(static s => s.Key, static s => long.Parse(s.Value["time"], CultureInfo.InvariantCulture)));
    }

    /// <summary>A TTL up to 30 days as <see cref="AssertTtl"/> checks it; one past 30 days exactly, from the clocks read
    /// before the item was set and after it was read.</summary>
    /// <remarks>
    /// Past 30 days the client sends the absolute Unix time E = its clock's whole seconds + the TTL
    /// (<c>Expiration.ToTtl</c>), read between <c>before.Client</c> and <c>after.Client</c>. memcached 1.6.18 keeps it as
    /// E - process_started (<c>realtime()</c>, memcached.c), and <c>mg</c>'s <c>t</c> answers that minus current_time
    /// (proto_text.c), so the TTL read is E - (process_started + current_time): E minus the server's own time, which
    /// <c>stats</c> reports as <c>time</c> (the same sum, memcached.c server_stats) and which moves forward only, so it
    /// was between the two reads of it. memcached's time is not the client's: process_started is the wall clock's
    /// second at start, while current_time counts the monotonic clock's seconds, set by a timer once a second, so it lags
    /// the client's second by up to about two (3456002 for 40 days was read once); the bound needs no guess of that lag.
    /// </remarks>
    private void AssertTtlAt(string key, long expected, long actual, Clocks before, Clocks after)
    {
        if (expected <= 30 * 86400)
        {
            AssertTtl(expected, actual);
            return;
        }

        string server = Engine.Locate(Engine.Key(key)).Endpoint.Name;
        Assert.InRange(actual, before.Client + expected - after.Servers[server], after.Client + expected - before.Servers[server]);
    }

    [Fact]
    public async Task SetAsync_Flipped_StoresTheOwnEntryAndNoCompanion()
    {
        string key = MemcachedServerFixture.UniqueKey("dc-flipped");

        await Cache("flipped").SetAsync(key, Value, new DistributedCacheEntryOptions { SlidingExpiration = Window });

        Stored entry = await RawAsync(key);
        Assert.Equal(0xDC01u, entry.Flags);
        Assert.Equal([0, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0, .. Value], entry.Data); // no absolute expiration, a 100 s window
        AssertTtl(100, entry.Ttl);
        Assert.False((await RawAsync(Companion(key))).Hit);
    }

    public static TheoryData<string, string> Readers => new()
    {
        // who wrote the entry, who reads it
        { "old", "migration" },
        { "old", "flipped" },
        { "migration", "old" },
        { "migration", "migration" },
        { "migration", "flipped" },
        { "flipped", "migration" },
        { "flipped", "flipped" },
    };

    [Theory]
    [MemberData(nameof(Readers))]
    public async Task GetAsync_SlidingEntryOfEitherFormat_ReturnsItsBytesAndSlidesWhatItsWriterStored(string writer, string reader)
    {
        string key = MemcachedServerFixture.UniqueKey($"dc-{writer}-{reader}");
        await Cache(writer).SetAsync(key, Value, new DistributedCacheEntryOptions { SlidingExpiration = Window });
        bool companion = writer != "flipped";
        await ShortenAsync(key, companion);

        Assert.Equal(Value, await Cache(reader).GetAsync(key));

        AssertTtl(100, (await RawAsync(key)).Ttl);
        if (companion)
        {
            AssertTtl(100, (await RawAsync(Companion(key))).Ttl);
        }
    }

    [Theory]
    [InlineData("old", "migration")]
    [InlineData("old", "flipped")]
    [InlineData("migration", "old")]
    [InlineData("migration", "flipped")]
    public async Task RefreshAsync_EnyimEntry_SlidesTheEntryAndItsCompanionByTheCompanionsWindow(string writer, string reader)
    {
        string key = MemcachedServerFixture.UniqueKey($"dc-refresh-{writer}-{reader}");
        await Cache(writer).SetAsync(key, Value, new DistributedCacheEntryOptions { SlidingExpiration = Window });
        await ShortenAsync(key, companion: true);

        await Cache(reader).RefreshAsync(key);

        Stored entry = await RawAsync(key);
        Assert.Equal(Value, entry.Data);
        AssertTtl(100, entry.Ttl);
        AssertTtl(100, (await RawAsync(Companion(key))).Ttl);
    }

    /// <summary>Moves the entry's TTL (and its companion's) down to 50 s, as time would, so a slide shows.</summary>
    private async Task ShortenAsync(string key, bool companion)
    {
        Assert.True(await Engine.TouchAsync(key, TimeSpan.FromSeconds(50), CancellationToken.None));
        if (companion)
        {
            Assert.True(await Engine.TouchAsync(Companion(key), TimeSpan.FromSeconds(50), CancellationToken.None));
        }

        AssertTtl(50, (await RawAsync(key)).Ttl);
    }

    [Fact]
    public async Task GetAsync_EnyimEntryWhoseTtlsAreWithinATenthOfTheWindow_TwoGetsAndNoTouch()
    {
        string key = MemcachedServerFixture.UniqueKey("dc-hot");
        await Cache("migration").SetAsync(key, Value, new DistributedCacheEntryOptions { SlidingExpiration = Window });
        long before = await TouchesAsync();

        Assert.Equal(Value, await Cache("migration").GetAsync(key));
        Assert.Equal(Value, await Cache("flipped").GetAsync(key));

        Assert.Equal(before, await TouchesAsync());
        await ShortenAsync(key, companion: true);
        Assert.Equal(Value, await Cache("flipped").GetAsync(key));
        Assert.Equal(before + 4, await TouchesAsync()); // the two of ShortenAsync, then the entry's and the companion's
    }

    private async Task<long> TouchesAsync()
    {
        IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>> stats = await _migration.GetRequiredService<MemcachedClient>().GetStatsAsync();
        return stats.Values.Sum(static s => long.Parse(s["cmd_touch"], CultureInfo.InvariantCulture));
    }

    [Fact]
    public async Task GetAsync_OwnEntry_TheMigrationPhaseReadsItAndAnOldServerCannot()
    {
        // Why the migration phase writes EnyimMemcachedCore's entry: its DefaultTranscoder reads flags 0xDC01 by their
        // low byte as TypeCode.Object (BSON), which is not a byte[], so its Get<byte[]> catches the failure and returns
        // null (MemcachedClient.cs, PerformGet): a session written so is lost on an old server.
        string key = MemcachedServerFixture.UniqueKey("dc-own");
        await Cache("flipped").SetAsync(key, Value, new DistributedCacheEntryOptions { SlidingExpiration = Window });

        Assert.Equal(Value, await Cache("migration").GetAsync(key));
        Assert.Null(await Cache("old").GetAsync(key));
    }

    [Theory]
    [InlineData("migration", "migration")]
    [InlineData("migration", "old")]
    [InlineData("old", "migration")]
    public async Task RemoveAsync_MigrationPhaseOrOld_RemovesTheEntryAndItsCompanion(string writer, string remover)
    {
        string key = MemcachedServerFixture.UniqueKey($"dc-remove-{writer}-{remover}");
        await Cache(writer).SetAsync(key, Value, new DistributedCacheEntryOptions { SlidingExpiration = Window });
        Assert.True((await RawAsync(Companion(key))).Hit);

        await Cache(remover).RemoveAsync(key);

        Assert.False((await RawAsync(key)).Hit);
        Assert.False((await RawAsync(Companion(key))).Hit);
        Assert.Null(await Cache("migration").GetAsync(key));
        Assert.Null(await Cache("old").GetAsync(key));
    }

    [Fact]
    public async Task SetAsync_AgainWithAnotherWindow_MigrationPhaseSetsTheCompanionWhereEnyimMemcachedCoreOnlyAddsIt()
    {
        // EnyimMemcachedCore adds the companion (DistributedCache.cs, SetAsync: AddAsync): a second set keeps the first
        // companion's window and TTL, so an entry set again and again outlives its companion and then stops sliding.
        (string oldKey, string newKey) = await OnOldAndMigrationAsync("dc-again", async (cache, key) =>
        {
            await cache.SetAsync(key, Value, new DistributedCacheEntryOptions { SlidingExpiration = Window });
            await ShortenAsync(key, companion: true);
            await cache.SetAsync(key, Value, new DistributedCacheEntryOptions { SlidingExpiration = TimeSpan.FromSeconds(200) });
        });

        Stored oldCompanion = await RawAsync(Companion(oldKey));
        Assert.Equal("00:01:40"u8.ToArray(), oldCompanion.Data);
        AssertTtl(50, oldCompanion.Ttl);
        Stored newCompanion = await RawAsync(Companion(newKey));
        Assert.Equal("00:03:20"u8.ToArray(), newCompanion.Data);
        AssertTtl(200, newCompanion.Ttl);
        AssertTtl(200, (await RawAsync(newKey)).Ttl);
    }

    [Fact]
    public async Task SetAsync_WithoutAWindowAfterOneWithIt_MigrationPhaseDeletesTheCompanionWhereEnyimMemcachedCoreLeavesIt()
    {
        // Left there, the companion makes EnyimMemcachedCore's refresh give the entry its old window again.
        (string oldKey, string newKey) = await OnOldAndMigrationAsync("dc-unslid", async (cache, key) =>
        {
            await cache.SetAsync(key, Value, new DistributedCacheEntryOptions { SlidingExpiration = Window });
            await cache.SetAsync(key, Value, new DistributedCacheEntryOptions { AbsoluteExpirationRelativeToNow = TimeSpan.FromSeconds(300) });
        });

        Assert.True((await RawAsync(Companion(oldKey))).Hit);
        Assert.False((await RawAsync(Companion(newKey))).Hit);
        await Cache("old").RefreshAsync(newKey);
        AssertTtl(300, (await RawAsync(newKey)).Ttl);
    }

    [Fact]
    public async Task SetAsync_WindowAndAbsolute_MigrationPhaseCapsTheTtlByTheAbsoluteWhereEnyimMemcachedCoreIgnoresIt()
    {
        var options = new DistributedCacheEntryOptions { SlidingExpiration = Window, AbsoluteExpirationRelativeToNow = TimeSpan.FromSeconds(30) };

        (string oldKey, string newKey) = await OnOldAndMigrationAsync("dc-capped", (cache, key) => cache.SetAsync(key, Value, options));

        AssertTtl(100, (await RawAsync(oldKey)).Ttl);
        AssertTtl(30, (await RawAsync(newKey)).Ttl);
        Stored companion = await RawAsync(Companion(newKey));
        Assert.Equal("00:01:40"u8.ToArray(), companion.Data);
        AssertTtl(30, companion.Ttl);
    }
}
