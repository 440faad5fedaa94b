using System.Net;
using System.Text;
using System.Text.Json;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.WebApp;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.Caching.Distributed;
using Microsoft.Extensions.Caching.Hybrid;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.Samples.Tests.WebApp;

/// <summary>The sample web app on Kestrel (127.0.0.1, a free port) against a real memcached of its own: what the README promises.</summary>
public sealed class WebAppTests : IAsyncLifetime
{
    private readonly MemcachedServer _server = MemcachedServer.Start();
    private readonly string _prefix = $"webapp-test-{Guid.NewGuid():N}:";
    private WebApplication _app = null!;
    private HttpClient _http = null!;

    public async Task InitializeAsync() => (_app, _http) = await StartAppAsync();

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
        HttpResponseMessage first = await _http.GetAsync(new Uri("/products/1", UriKind.Relative));
        HttpResponseMessage second = await _http.GetAsync(new Uri("/products/1", UriKind.Relative));

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

        Course course = Assert.IsType<Course>((await client.GetAsync<Product>(_prefix + "product:2")).Value);
        Product card = (await client.GetAsync<Product>(_prefix + "product:3")).Value!;

        Assert.Equal(["ketama", "eviction", "sizing"], course.Lessons);
        Assert.NotNull(course.Tags);
        Assert.Empty(course.Tags);
        Assert.Equal(typeof(Product), card.GetType());
        Assert.Null(card.Tags);
        Assert.Equal(DateTimeKind.Utc, card.UpdatedUtc.Kind);
    }

    [Fact]
    public async Task Catalog_ThroughHybridCache_BookComesBackABookFromMemcachedAfterAnAppRestart()
    {
        HttpResponseMessage first = await _http.GetAsync(new Uri("/catalog/1", UriKind.Relative));

        // A fresh service provider (a restarted app: empty L1) with the app's cache set-up reads the entry from memcached.
        var services = new ServiceCollection();
        services.AddMemcached(o =>
        {
            o.Servers.Add(_server.Endpoint);
            o.KeyPrefix = _prefix;
        });
        services.AddMemcachedHybridCache();
        await using ServiceProvider restarted = services.BuildServiceProvider();

        Product? stored = await restarted.GetRequiredService<HybridCache>().GetOrCreateAsync<Product?>(
            "catalog:1", _ => throw new InvalidOperationException("the factory ran: memcached missed"));

        Assert.Equal(HttpStatusCode.OK, first.StatusCode);
        Book book = Assert.IsType<Book>(stored);
        Assert.Equal("978-1449373320", book.Isbn);
        Assert.Equal(new Version(1, 0), book.Edition);
        Assert.Equal(1, _app.Services.GetRequiredService<ProductRepository>().Loads);
    }

    [Fact]
    public async Task Catalog_TwoAppsOneRemovesByKeyThenByTag_TheOtherLoadsAgainAndOneLoadPerChangeInTheFarm()
    {
        // A farm of two: both apps share memcached and the key prefix, each with its own L1 and repository.
        (WebApplication otherApp, HttpClient other) = await StartAppAsync();
        await using WebApplication _ = otherApp;
        using HttpClient __ = other;
        ProductRepository here = _app.Services.GetRequiredService<ProductRepository>();
        ProductRepository there = otherApp.Services.GetRequiredService<ProductRepository>();

        await GetOkAsync(_http, "/catalog/1");
        await GetOkAsync(other, "/catalog/1"); // the entry the first app stored: no load there
        await GetOkAsync(_http, "/catalog/1"); // its own L1
        (int, int) filled = (here.Loads, there.Loads);

        HttpResponseMessage removed = await _http.DeleteAsync(new Uri("/catalog/1", UriKind.Relative));
        await GetOkAsync(other, "/catalog/1"); // its L1 copy was dropped when the removal returned: it loads
        await GetOkAsync(_http, "/catalog/1"); // the entry the other app stored
        (int, int) afterRemove = (here.Loads, there.Loads);

        HttpResponseMessage byTag = await other.DeleteAsync(new Uri("/catalog", UriKind.Relative));
        await GetOkAsync(_http, "/catalog/1");
        await GetOkAsync(other, "/catalog/1");

        Assert.Equal(HttpStatusCode.NoContent, removed.StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, byTag.StatusCode);
        Assert.Equal((1, 0), filled);
        Assert.Equal((1, 1), afterRemove);
        Assert.Equal((2, 1), (here.Loads, there.Loads));
        await otherApp.StopAsync();
    }

    [Fact]
    public async Task Health_MemcachedUpThenKilled_HealthyThenUnhealthy503()
    {
        HttpResponseMessage up = await _http.GetAsync(new Uri("/health", UriKind.Relative));
        _server.Kill();
        HttpResponseMessage down = await _http.GetAsync(new Uri("/health", UriKind.Relative));

        Assert.Equal((HttpStatusCode.OK, "Healthy"), (up.StatusCode, await up.Content.ReadAsStringAsync()));
        Assert.Equal((HttpStatusCode.ServiceUnavailable, "Unhealthy"), (down.StatusCode, await down.Content.ReadAsStringAsync()));
    }

    [Fact]
    public async Task Products_MemcachedKilledMidRunThenRestarted_EveryRequest200_CacheHitsAgainWithin5Seconds()
    {
        // The seed's farm must keep serving from its database while memcached restarts: requests run all along, memcached
        // is killed and restarted under them, and the app is back to cache hits within 5 s of the restart, with its
        // default options (a down server is retried every 2 s).
        var statuses = new System.Collections.Concurrent.ConcurrentBag<(string Path, HttpStatusCode Status)>();
        using var stop = new CancellationTokenSource();
        string[] paths = ["/products/1", "/products/2", "/products/3", "/catalog/1", "/catalog/2", "/catalog/3"];
        Task[] users = Enumerable.Range(0, 4).Select(u => Task.Run(async () =>
        {
            for (int i = u; !stop.IsCancellationRequested; i++)
            {
                string path = paths[i % paths.Length];
                using HttpResponseMessage response = await _http.GetAsync(new Uri(path, UriKind.Relative), CancellationToken.None);
                statuses.Add((path, response.StatusCode));
                await Task.Delay(10, CancellationToken.None);
            }
        })).ToArray();
        // The users' first requests fill the cache: wait until they have (a fixed second was not always enough on a busy machine).
        var warming = System.Diagnostics.Stopwatch.StartNew();
        while (await XCacheAsync("/products/1") != "hit" && warming.Elapsed < TimeSpan.FromSeconds(30))
        {
            await Task.Delay(50);
        }

        Assert.Equal("hit", await XCacheAsync("/products/1"));

        _server.Kill();
        await Task.Delay(2000);
        int duringOutage = statuses.Count;
        _server.Restart();
        var recovery = System.Diagnostics.Stopwatch.StartNew();
        while (await XCacheAsync("/products/1") != "hit" && recovery.Elapsed < TimeSpan.FromSeconds(15))
        {
            await Task.Delay(50);
        }

        recovery.Stop();
        await stop.CancelAsync();
        await Task.WhenAll(users).WaitAsync(TimeSpan.FromSeconds(30));

        Assert.All(statuses, s => Assert.Equal(HttpStatusCode.OK, s.Status));
        Assert.True(duringOutage > 20, $"only {duringOutage} requests were made");
        Assert.True(recovery.Elapsed <= TimeSpan.FromSeconds(5), $"cache hits came back {recovery.Elapsed.TotalSeconds:F1} s after the restart");
    }

    private static async Task GetOkAsync(HttpClient http, string path)
    {
        using HttpResponseMessage response = await http.GetAsync(new Uri(path, UriKind.Relative));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
    }

    private async Task<(WebApplication App, HttpClient Http)> StartAppAsync()
    {
        WebApplication app = WebAppHost.Build(
        [
            "--urls", "http://127.0.0.1:0",
            "--environment", "Production",
            $"--Memcached:Servers:0={_server.Endpoint}",
            $"--Memcached:KeyPrefix={_prefix}",
            "--Logging:LogLevel:Default=Warning",
        ]);
        await app.StartAsync();
        string address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.Single();
        return (app, new HttpClient { BaseAddress = new Uri(address), Timeout = TimeSpan.FromSeconds(10) });
    }

    private async Task<string> XCacheAsync(string path)
    {
        using HttpResponseMessage response = await _http.GetAsync(new Uri(path, UriKind.Relative));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return response.Headers.GetValues("X-Cache").Single();
    }

    [Fact]
    public async Task Notes_ThroughIDistributedCache_RoundTripAndMissAfterDelete()
    {
        HttpResponseMessage put = await _http.PutAsync(new Uri("/notes/todo", UriKind.Relative), new StringContent("ship it", Encoding.UTF8));
        string got = await _http.GetStringAsync(new Uri("/notes/todo", UriKind.Relative));
        HttpResponseMessage missing = await _http.GetAsync(new Uri("/notes/never-written", UriKind.Relative));

        Assert.Equal(HttpStatusCode.NoContent, put.StatusCode);
        Assert.Equal("ship it", got);
        Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
    }
}
