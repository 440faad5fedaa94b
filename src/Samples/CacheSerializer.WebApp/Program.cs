// Run against a local memcached:  dotnet run --project src/Samples/CacheSerializer.WebApp -- --urls http://127.0.0.1:5080
//   curl http://127.0.0.1:5080/products/1   (X-Cache: miss, then hit)
CacheSerializer.WebApp.WebAppHost.Build(args).Run();
