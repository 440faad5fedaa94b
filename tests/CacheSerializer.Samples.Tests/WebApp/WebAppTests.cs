using System.Net;
using System.Text;
using System.Text.Json;
using CacheSerializer.Memcached;
using CacheSerializer.WebApp;
using CacheSerializer.Workloads.Servers;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.Samples.Tests.WebApp;

/// <summary>The sample web app on Kestrel (127.0.0.1, a free port) against a real memcached of its own: what the README promises.</summary>
public sealed class WebAppTests : IAsyncLifetime
{
    private readonly MemcachedServer _server = MemcachedServer.Start();
    private readonly string _prefix = $"webapp-test-{Guid.NewGuid():N}:";
    private WebApplication _app = null!;
    private HttpClient _http = null!;

    public async Task InitializeAsync()
    {
        _app = WebAppHost.Build(
        [
            "--urls", "http://127.0.0.1:0",
            "--environment", "Production",
            $"--Memcached:Servers:0={_server.Endpoint}",
            $"--Memcached:KeyPrefix={_prefix}",
            "--Logging:LogLevel:Default=Warning",
        ]);
        await _app.StartAsync();
        var address = _app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.Single();
        _http = new HttpClient { BaseAddress = new Uri(address), Timeout = TimeSpan.FromSeconds(10) };
    }

    public async Task DisposeAsync()
    {
        _http.Dispose();
        await _app.StopAsync();
        await _app.DisposeAsync();
        _server.Dispose();
    }

    [Fact]
    public async Task GetProduct_SecondRequest_IsACacheHitWithTheSubtypesMembers()
    {
        var first = await _http.GetAsync(new Uri("/products/1", UriKind.Relative));
        var second = await _http.GetAsync(new Uri("/products/1", UriKind.Relative));

        Assert.Equal(HttpStatusCode.OK, second.StatusCode);
        Assert.Equal("miss", first.Headers.GetValues("X-Cache").Single());
        Assert.Equal("hit", second.Headers.GetValues("X-Cache").Single());
        Assert.Equal(await first.Content.ReadAsStringAsync(), await second.Content.ReadAsStringAsync());
        using var json = JsonDocument.Parse(await second.Content.ReadAsStringAsync());
        Assert.Equal("978-1449373320", json.RootElement.GetProperty("isbn").GetString());
        Assert.Equal("1.0", json.RootElement.GetProperty("edition").GetString());
        Assert.Equal(1, _app.Services.GetRequiredService<ProductRepository>().Loads);
    }

    [Fact]
    public async Task GetProduct_StoredThroughTheApp_ReadsBackAsTheSubtypeWithNullAndEmptyKept()
    {
        await _http.GetAsync(new Uri("/products/2", UriKind.Relative));
        await _http.GetAsync(new Uri("/products/3", UriKind.Relative));
        await using var client = new MemcachedClient(new MemcachedClientOptions { Servers = { _server.Endpoint } });

        var course = Assert.IsType<Course>((await client.GetAsync<Product>(_prefix + "product:2")).Value);
        var card = (await client.GetAsync<Product>(_prefix + "product:3")).Value!;

        Assert.Equal(["ketama", "eviction", "sizing"], course.Lessons);
        Assert.NotNull(course.Tags);
        Assert.Empty(course.Tags);
        Assert.Equal(typeof(Product), card.GetType());
        Assert.Null(card.Tags);
        Assert.Equal(DateTimeKind.Utc, card.UpdatedUtc.Kind);
    }

    [Fact]
    public async Task Notes_ThroughIDistributedCache_RoundTripAndMissAfterDelete()
    {
        var put = await _http.PutAsync(new Uri("/notes/todo", UriKind.Relative), new StringContent("ship it", Encoding.UTF8));
        var got = await _http.GetStringAsync(new Uri("/notes/todo", UriKind.Relative));
        var missing = await _http.GetAsync(new Uri("/notes/never-written", UriKind.Relative));

        Assert.Equal(HttpStatusCode.NoContent, put.StatusCode);
        Assert.Equal("ship it", got);
        Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
    }
}
