using CacheSerializer.Memcached;

namespace CacheSerializer.WebApp;

public static class QuickStart
{
    public static WebApplication Build(string[] args)
    {
        WebApplicationBuilder builder = WebApplication.CreateBuilder(args);
        // The client, IDistributedCache and the protobuf transcoder (objects compressed with Zstandard by default),
        // from "Memcached" in appsettings.json: "Memcached": { "Servers": ["127.0.0.1:11211"] }
        builder.Services.AddMemcached(builder.Configuration.GetSection("Memcached"));
        builder.Services.AddSingleton<ProductRepository>();
        WebApplication app = builder.Build();

        app.MapGet("/products/{id:int}", async (int id, MemcachedClient cache, ProductRepository db, CancellationToken ct) =>
        {
            MemcachedGetResult<Product> hit = await cache.GetAsync<Product>($"product:{id}", ct);   // a Book comes back as a Book
            if (hit.Found) return Results.Ok((object?)hit.Value);
            Product? product = await db.LoadAsync(id, ct);
            if (product is null) return Results.NotFound();   // nothing cached: a product added later is found at once
            await cache.AddAsync($"product:{id}", product, TimeSpan.FromMinutes(5), ct);   // a fill, not an overwrite
            return Results.Ok((object)product);
        });
        return app;
    }
}
