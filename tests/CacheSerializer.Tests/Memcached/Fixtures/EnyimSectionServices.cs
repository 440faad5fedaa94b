using System.Text;
using CacheSerializer.LocalServers;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.Tests.Memcached.Fixtures;

/// <summary>Registers a client bound from an EnyimMemcachedCore section (<c>"enyimMemcached": { "Servers": [ { "Address",
/// "Port" } ] }</c>) over running servers, as an application switching from EnyimMemcachedCore does.</summary>
internal static class EnyimSectionServices
{
    /// <summary>Adds the client (and its <c>IDistributedCache</c>) to <paramref name="services"/>.</summary>
    /// <param name="services">The services.</param>
    /// <param name="servers">The servers, listed by 127.0.0.1 and port.</param>
    /// <param name="extra">More of the section's JSON, after the servers (starting with a comma), or empty.</param>
    /// <returns><paramref name="services"/>.</returns>
    public static IServiceCollection AddEnyimSectionClient(this IServiceCollection services, IEnumerable<MemcachedServer> servers, string extra = "")
    {
        string list = string.Join(", ", servers.Select(static s => $$"""{ "Address": "127.0.0.1", "Port": {{s.Port}} }"""));
        IConfiguration configuration = new ConfigurationBuilder()
            .AddJsonStream(new MemoryStream(Encoding.UTF8.GetBytes($$"""{ "enyimMemcached": { "Servers": [ {{list}} ]{{extra}} } }""")))
            .Build();
        return services.AddMemcached(configuration.GetSection("enyimMemcached"));
    }

    /// <summary>The section's JSON that flips its writer to protobuf (<c>ProtobufTranscoder:ObjectFormat</c>).</summary>
    public const string Flipped = """, "ProtobufTranscoder": { "ObjectFormat": "Protobuf" }""";
}
