using CacheSerializer.Memcached;
using Microsoft.Extensions.Caching.Distributed;

namespace CacheSerializer.WebApp;

/// <summary>Builds the sample app: the same code runs under `dotnet run` and in the integration tests.</summary>
public static class WebAppHost
{
    public static WebApplication Build(string[] args)
    {
        var builder = WebApplication.CreateBuilder(args);

        // One line: the memcached client, IDistributedCache, and the protobuf transcoder, all from "Memcached" in appsettings.
        builder.Services.AddMemcached(builder.Configuration.GetSection("Memcached"));
        builder.Services.AddSingleton<ProductRepository>();

        var app = builder.Build();

        // Cache-aside with typed objects: a hit returns the stored subtype (Book, Course) without touching the repository.
        app.MapGet("/products/{id:int}", async (int id, MemcachedClient cache, ProductRepository repository, HttpContext http, CancellationToken ct) =>
        {
            var key = $"product:{id}";
            var cached = await cache.GetAsync<Product>(key, ct);
            if (cached.Found)
            {
                http.Response.Headers["X-Cache"] = "hit";
                return Results.Ok((object?)cached.Value); // as object: JSON shows the stored subtype's members
            }

            var product = await repository.LoadAsync(id, ct);
            if (product is null)
            {
                return Results.NotFound();
            }

            await cache.SetAsync(key, product, TimeSpan.FromMinutes(5), ct);
            http.Response.Headers["X-Cache"] = "miss";
            return Results.Ok((object)product);
        });

        app.MapDelete("/products/{id:int}", async (int id, MemcachedClient cache, CancellationToken ct) =>
            await cache.DeleteAsync($"product:{id}", ct) ? Results.NoContent() : Results.NotFound());

        // The IDistributedCache that ASP.NET features use (session, output caching libraries), with sliding expiration.
        app.MapPut("/notes/{name}", async (string name, HttpRequest request, IDistributedCache cache, CancellationToken ct) =>
        {
            using var reader = new StreamReader(request.Body);
            var text = await reader.ReadToEndAsync(ct);
            await cache.SetStringAsync($"note:{name}", text, new DistributedCacheEntryOptions { SlidingExpiration = TimeSpan.FromMinutes(20) }, ct);
            return Results.NoContent();
        });

        app.MapGet("/notes/{name}", async (string name, IDistributedCache cache, CancellationToken ct) =>
            await cache.GetStringAsync($"note:{name}", ct) is { } text ? Results.Text(text) : Results.NotFound());

        return app;
    }
}
