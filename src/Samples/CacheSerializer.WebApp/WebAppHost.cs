using CacheSerializer.Memcached;
using Microsoft.Extensions.Caching.Distributed;
using Microsoft.Extensions.Caching.Hybrid;

namespace CacheSerializer.WebApp;

/// <summary>Builds the sample app: the same code runs under `dotnet run` and in the integration tests.</summary>
public static class WebAppHost
{
    public static WebApplication Build(string[] args)
    {
        WebApplicationBuilder builder = WebApplication.CreateBuilder(args);

        // One line: the memcached client (IMemcachedClient), IDistributedCache, and the protobuf transcoder, all from
        // "Memcached" in appsettings; the options are checked when the app starts. A memcached outage never fails a
        // request: reads miss and writes report ServerFailure, so the app serves from its database meanwhile.
        builder.Services.AddMemcached(builder.Configuration.GetSection("Memcached"));

        // HybridCache, the package's own: memory (L1) in front of memcached (L2), objects stored with the transcoder (a
        // Book comes back a Book), one factory call per change across the farm, and L1 copies that every server drops
        // within 50 ms of a RemoveAsync or RemoveByTagAsync made on any server (docs/client.md, "HybridCache").
        builder.Services.AddMemcachedHybridCache();

        // /health: Healthy, Degraded (some servers down) or Unhealthy (all down), with each server's state.
        builder.Services.AddHealthChecks().AddMemcached();
        builder.Services.AddSingleton<ProductRepository>();

        WebApplication app = builder.Build();
        MapProducts(app);
        MapCatalog(app);
        MapNotes(app);
        app.MapHealthChecks("/health");
        return app;
    }

    /// <summary>Cache-aside with typed objects: a hit returns the stored subtype (Book, Course) without touching the repository.</summary>
    private static void MapProducts(IEndpointRouteBuilder app)
    {
        app.MapGet("/products/{id:int}", async (int id, IMemcachedClient cache, ProductRepository repository, HttpContext http, CancellationToken ct) =>
        {
            string key = $"product:{id}";
            MemcachedGetResult<Product> cached = await cache.GetAsync<Product>(key, ct);
            if (cached.Found)
            {
                http.Response.Headers["X-Cache"] = "hit";
                return Results.Ok((object?)cached.Value); // as object: JSON shows the stored subtype's members
            }

            Product? product = await repository.LoadAsync(id, ct);
            if (product is null)
            {
                return Results.NotFound();
            }

            // A fill is an add, not a set: it never overwrites a value an update stored meanwhile, and during a rolling
            // deploy it keeps the other build's entry (docs/client.md, "Rolling deploys").
            await cache.AddAsync(key, product, TimeSpan.FromMinutes(5), ct);
            http.Response.Headers["X-Cache"] = "miss";
            return Results.Ok((object)product);
        });

        app.MapDelete("/products/{id:int}", async (int id, IMemcachedClient cache, CancellationToken ct) =>
            await cache.DeleteAsync($"product:{id}", ct) ? Results.NoContent() : Results.NotFound());
    }

    /// <summary>The same catalogue through HybridCache: one factory call per key and change in the whole farm, however
    /// many requests miss at once on however many servers; the stored subtype back from memcached after a restart of the
    /// app; and removals (by key, or by a tag every entry of a category carries) that no server's L1 outlives.</summary>
    private static void MapCatalog(IEndpointRouteBuilder app)
    {
        var entry = new HybridCacheEntryOptions { Expiration = TimeSpan.FromMinutes(5), LocalCacheExpiration = TimeSpan.FromSeconds(30) };
        app.MapGet("/catalog/{id:int}", async (int id, HybridCache cache, ProductRepository repository, CancellationToken ct) =>
        {
            Product? product = await cache.GetOrCreateAsync<Product?>(
                $"catalog:{id}",
                async token => await repository.LoadAsync(id, token),
                entry,
                tags: ["catalog"],
                cancellationToken: ct);
            return product is null ? Results.NotFound() : Results.Ok((object)product);
        });

        // After an update of the product in the database: when this returns, no server serves the old copy (the call
        // waits the invalidation bound, 50 ms by default, for every server's L1 to have dropped it).
        app.MapDelete("/catalog/{id:int}", async (int id, HybridCache cache, CancellationToken ct) =>
        {
            await cache.RemoveAsync($"catalog:{id}", ct);
            return Results.NoContent();
        });

        // After a change that touches the whole catalogue (a price list): every entry tagged "catalog", on every server.
        app.MapDelete("/catalog", async (HybridCache cache, CancellationToken ct) =>
        {
            await cache.RemoveByTagAsync("catalog", ct);
            return Results.NoContent();
        });
    }

    /// <summary>The IDistributedCache that ASP.NET features use (session, output caching libraries), with sliding expiration.</summary>
    private static void MapNotes(IEndpointRouteBuilder app)
    {
        app.MapPut("/notes/{name}", async (string name, HttpRequest request, IDistributedCache cache, CancellationToken ct) =>
        {
            using var reader = new StreamReader(request.Body);
            string text = await reader.ReadToEndAsync(ct);
            await cache.SetStringAsync($"note:{name}", text, new DistributedCacheEntryOptions { SlidingExpiration = TimeSpan.FromMinutes(20) }, ct);
            return Results.NoContent();
        });

        app.MapGet("/notes/{name}", async (string name, IDistributedCache cache, CancellationToken ct) =>
            await cache.GetStringAsync($"note:{name}", ct) is { } text ? Results.Text(text) : Results.NotFound());
    }
}
