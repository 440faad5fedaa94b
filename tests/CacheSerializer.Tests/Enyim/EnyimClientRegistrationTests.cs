using System.Reflection;
using CacheSerializer.Enyim;
using CacheSerializer.Tests.Memcached.Fixtures;
using Microsoft.Extensions.DependencyInjection;
using CoreClient = CacheSerializer.Memcached.MemcachedClient;

namespace CacheSerializer.Tests.Enyim;

/// <summary>The client surface a registration adds (<c>AddClientSurface</c>): EnyimMemcachedCore's
/// <see cref="IMemcachedClient"/> over the unnamed core client, <see cref="IMemcachedClient{T}"/> over the keyed one.</summary>
/// <remarks>Called as <c>AddEnyimMemcached</c> calls it, once per registration; until that registration is merged beside
/// it (the partial method's other half), through reflection.</remarks>
[Collection(MemcachedCollection.Name)]
public sealed class EnyimClientRegistrationTests(MemcachedServerFixture fixture)
{
    [Fact]
    public async Task AddClientSurface_UnnamedAndKeyed_EachFrontOverItsOwnCoreClient()
    {
        var services = new ServiceCollection();
        services.AddMemcached(options => options.Servers.Add(fixture.Servers[0].Endpoint));
        services.AddKeyedMemcached("second", options => options.Servers.Add(fixture.Servers[1].Endpoint));
        AddClientSurface(services, null, null);
        AddClientSurface(services, "second", typeof(SecondCluster));
        using ServiceProvider provider = services.BuildServiceProvider();
        string key = MemcachedServerFixture.UniqueKey("registered");

        IMemcachedClient first = provider.GetRequiredService<IMemcachedClient>();
        IMemcachedClient<SecondCluster> second = provider.GetRequiredService<IMemcachedClient<SecondCluster>>();
        Assert.True(first.Set(key, "first", 0));
        Assert.True(second.Set(key, "second", 0));

        Assert.Same(first, provider.GetRequiredService<IMemcachedClient>());
        Assert.IsType<CacheSerializer.Enyim.MemcachedClient<SecondCluster>>(second);
        Assert.Equal("first", await provider.GetRequiredService<CoreClient>().GetValueAsync<string>(key));
        Assert.Equal("second", await provider.GetRequiredKeyedService<CoreClient>("second").GetValueAsync<string>(key));
    }

    private static void AddClientSurface(IServiceCollection services, string? name, Type? marker) =>
        typeof(EnyimServiceCollectionExtensions).GetMethod("AddClientSurface", BindingFlags.NonPublic | BindingFlags.Static)!
            .Invoke(null, [services, name, marker]);

    /// <summary>The marker type of a second set of servers, as EnyimMemcachedCore's sample names one.</summary>
    private sealed class SecondCluster
    {
    }
}
