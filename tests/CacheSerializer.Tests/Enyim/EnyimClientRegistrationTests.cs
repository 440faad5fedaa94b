using System.Globalization;
using CacheSerializer.Enyim;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.DependencyInjection;
using CoreClient = CacheSerializer.Memcached.MemcachedClient;

namespace CacheSerializer.Tests.Enyim;

/// <summary>The client surface <c>AddEnyimMemcached</c> registers: EnyimMemcachedCore's <see cref="IMemcachedClient"/> over
/// the unnamed core client, <see cref="IMemcachedClient{T}"/> over the keyed one <c>AddEnyimMemcached&lt;T&gt;</c> adds.</summary>
[Collection(MemcachedCollection.Name)]
public sealed class EnyimClientRegistrationTests(MemcachedServerFixture fixture)
{
    [Fact]
    public async Task AddEnyimMemcached_UnnamedAndSecondCluster_EachFrontOverItsOwnCoreClient()
    {
        var services = new ServiceCollection();
        string[] firstServer = fixture.Servers[0].Endpoint.Split(':');
        string[] secondServer = fixture.Servers[1].Endpoint.Split(':');
        services.AddEnyimMemcached(options => options.AddServer(firstServer[0], int.Parse(firstServer[1], CultureInfo.InvariantCulture)));
        services.AddEnyimMemcached<SecondCluster>(
            EnyimSections.Configuration($$"""{ "Servers": [{ "Address": "{{secondServer[0]}}", "Port": {{secondServer[1]}} }] }""", "postbodyMemcached"),
            "postbodyMemcached");
        using ServiceProvider provider = services.BuildServiceProvider();
        string key = MemcachedServerFixture.UniqueKey("registered");

        IMemcachedClient first = provider.GetRequiredService<IMemcachedClient>();
        IMemcachedClient<SecondCluster> second = provider.GetRequiredService<IMemcachedClient<SecondCluster>>();
        Assert.True(first.Set(key, "first", 0));
        Assert.True(second.Set(key, "second", 0));

        Assert.Same(first, provider.GetRequiredService<IMemcachedClient>());
        Assert.IsType<CacheSerializer.Enyim.MemcachedClient<SecondCluster>>(second);
        Assert.Equal("first", await provider.GetRequiredService<CoreClient>().GetValueAsync<string>(key));
        Assert.Equal("second", await provider.GetRequiredKeyedService<CoreClient>(EnyimServiceCollectionExtensions.ClientName<SecondCluster>()).GetValueAsync<string>(key));
        Assert.Null(await provider.GetRequiredService<CoreClient>().GetValueAsync<string>(MemcachedServerFixture.UniqueKey("absent")));
    }

    /// <summary>The marker type of a second set of servers, as EnyimMemcachedCore's sample names one.</summary>
    private sealed class SecondCluster
    {
    }
}
