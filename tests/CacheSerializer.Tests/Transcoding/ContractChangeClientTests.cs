extern alias buildA;
extern alias buildB;

using CacheSerializer.Memcached;
using CacheSerializer.Tests.Memcached.Fixtures;
using A = buildA::CacheSerializer.Deploy;
using B = buildB::CacheSerializer.Deploy;

namespace CacheSerializer.Tests.Transcoding;

/// <summary>
/// The two separately built model assemblies of <see cref="ContractChangeTests"/>, each behind its own client with the
/// default options, sharing one real memcached: the new build's reads of the old build's entries return the right value
/// or a miss, never an exception or a wrong value, and its own write then hits.
/// </summary>
[Collection(MemcachedCollection.Name)]
public sealed class ContractChangeClientTests(MemcachedServerFixture fixture) : IAsyncLifetime
{
    private MemcachedClient _buildA = null!;
    private MemcachedClient _buildB = null!;

    public Task InitializeAsync()
    {
        _buildA = fixture.CreateClient();
        _buildB = fixture.CreateClient();
        return Task.CompletedTask;
    }

    public async Task DisposeAsync()
    {
        await _buildA.DisposeAsync();
        await _buildB.DisposeAsync();
    }

    [Fact]
    public async Task GetAsync_SameContractWrittenByTheOtherBuild_Hits()
    {
        string identical = MemcachedServerFixture.UniqueKey("identical");
        string renamed = MemcachedServerFixture.UniqueKey("renamed");
        await _buildA.SetAsync(identical, new A.Identical { Id = 1, Name = "one", Tags = null });
        await _buildA.SetAsync(renamed, new A.MemberRenamed { Id = 2, Title = "two" });

        MemcachedGetResult<B.Identical> first = await _buildB.GetAsync<B.Identical>(identical);
        MemcachedGetResult<B.MemberRenamed> second = await _buildB.GetAsync<B.MemberRenamed>(renamed);

        Assert.True(first.Found);
        Assert.Equal((1, "one", (List<string>?)null), (first.Value!.Id, first.Value.Name, first.Value.Tags));
        Assert.True(second.Found);
        Assert.Equal((2, "two"), (second.Value!.Id, second.Value.Heading));
    }

    [Fact]
    public async Task GetAsync_EveryChangedContractWrittenByTheOtherBuild_MissesThenHitsAfterTheNewBuildStores()
    {
        // Each change kind: the old build's entry is a miss for the new build (no exception, no wrong value); the new build
        // stores its own value, which then hits.
        await Check("member added", new A.MemberAdded { Id = 1, Name = "n" }, new B.MemberAdded { Id = 1, Name = "n", Price = 2.5m }, b => b.Price == 2.5m);
        await Check("member removed", new A.MemberRemoved { Id = 1, Name = "n" }, new B.MemberRemoved { Id = 1 }, b => b.Id == 1);
        await Check("member retyped", new A.MemberRetyped { Id = 1, Code = "12" }, new B.MemberRetyped { Id = 1, Code = 12 }, b => b.Code == 12);
        await Check("decimal to double", new A.DecimalToDouble { Price = 9.99m }, new B.DecimalToDouble { Price = 9.99 }, b => b.Price == 9.99);
        await Check("nested retyped", new A.NestedRetyped { Part = new A.NestedRetypedPart { Count = 4 } }, new B.NestedRetyped { Part = new B.NestedRetypedPart { Count = "4" } }, b => b.Part!.Count == "4");
        await Check("string to contract", new A.StringToContract { Address = "1 Main St" }, new B.StringToContract { Address = new B.StringToContractAddress { Street = "1 Main St" } }, b => b.Address!.Street == "1 Main St");
        await Check("list retyped", new A.ListRetyped { Values = ["a", "b"] }, new B.ListRetyped { Values = [97, 98] }, b => b.Values!.SequenceEqual([97, 98]));
        await Check("default value", new A.DefaultChanged { Level = 5 }, new B.DefaultChanged { Level = 5 }, b => b.Level == 5);
        await Check("data format", new A.FormatChanged { Delta = -3 }, new B.FormatChanged { Delta = -3 }, b => b.Delta == -3);
        await Check("parseable to string", new A.ParseableRetyped { Version = new Version(1, 2) }, new B.ParseableRetyped { Version = "1.2" }, b => b.Version == "1.2");
        await Check("type renamed", new A.TypeRenamedOld { Id = 1 }, new B.TypeRenamedNew { Id = 1 }, b => b.Id == 1);
        await Check<B.SubtypeRemovedBase>("subtype removed", new A.SubtypeRemovedSub { Id = 1, Extra = "x" }, new B.SubtypeRemovedBase { Id = 1 }, b => b.Id == 1);
    }

    private async Task Check<T>(string change, object writtenByA, T writtenByB, Func<T, bool> isB)
        where T : class
    {
        string key = MemcachedServerFixture.UniqueKey(change.Replace(' ', '-'));
        Assert.Equal(MemcachedStoreResult.Stored, await _buildA.SetAsync(key, writtenByA));

        MemcachedGetResult<T> old = await _buildB.GetAsync<T>(key);
        Assert.False(old.Found, $"{change}: the other build's entry must be a miss, it read as {old.Value}");

        Assert.Equal(MemcachedStoreResult.Stored, await _buildB.SetAsync(key, writtenByB));
        MemcachedGetResult<T> fresh = await _buildB.GetAsync<T>(key);
        Assert.True(fresh.Found, change);
        Assert.True(isB(fresh.Value!), change);
    }
    [Fact]
    public async Task AddAsync_TwoBuildsOfAnAppReadThrough_KeepEachOthersEntriesAndNeverReadAStaleValue()
    {
        // Issue 32, as a new user's two builds of an app meet it: build B adds a member to the class both builds call
        // CacheSerializer.Deploy.MemberAdded; each reads through the cache (GetAsync, and on a miss AddAsync).
        string key = MemcachedServerFixture.UniqueKey("two-builds");
        int loadsA = 0, loadsB = 0;
        async Task<string?> ReadA(string version)
        {
            MemcachedGetResult<A.MemberAdded> hit = await _buildA.GetAsync<A.MemberAdded>(key);
            if (hit.Found)
            {
                return hit.Value!.Name;
            }

            loadsA++;
            await _buildA.AddAsync(key, new A.MemberAdded { Id = 1, Name = version });
            return version;
        }

        async Task<string?> ReadB(string version)
        {
            MemcachedGetResult<B.MemberAdded> hit = await _buildB.GetAsync<B.MemberAdded>(key);
            if (hit.Found)
            {
                return hit.Value!.Name;
            }

            loadsB++;
            await _buildB.AddAsync(key, new B.MemberAdded { Id = 1, Name = version, Price = 1.5m });
            return version;
        }

        for (int i = 0; i < 5; i++)
        {
            Assert.Equal("v1", await ReadA("v1"));
            Assert.Equal("v1", await ReadB("v1"));
        }

        Assert.Equal((1, 1), (loadsA, loadsB)); // one load per build for the whole deploy, not one per switch

        // An update by either build (the source of truth changes to v2, then the key is deleted) reaches both.
        Assert.True(await _buildB.DeleteAsync(key));
        Assert.Equal("v2", await ReadA("v2"));
        Assert.Equal("v2", await ReadB("v2"));
        Assert.Equal((2, 2), (loadsA, loadsB));
    }
}
