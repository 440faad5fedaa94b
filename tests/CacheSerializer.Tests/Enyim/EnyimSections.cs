using System.Text;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using CoreOptions = CacheSerializer.Memcached.MemcachedClientOptions;

namespace CacheSerializer.Tests.Enyim;

/// <summary>Builds clients registered by the compatibility package's <c>AddEnyimMemcached</c> and reads back what they were given.</summary>
internal static class EnyimSections
{
    /// <summary>The application's configuration with <paramref name="sectionJson"/> as its <c>enyimMemcached</c> section.</summary>
    public static IConfiguration Configuration(string sectionJson, string sectionKey = "enyimMemcached") =>
        new ConfigurationBuilder()
            .AddJsonStream(new MemoryStream(Encoding.UTF8.GetBytes($$"""{ "{{sectionKey}}": {{sectionJson}} }""")))
            .Build();

    /// <summary>The unnamed client's options after <paramref name="register"/> (validated, as at start-up).</summary>
    public static CoreOptions Options(Action<IServiceCollection> register)
    {
        var services = new ServiceCollection();
        register(services);
        using ServiceProvider provider = services.BuildServiceProvider();
        return provider.GetRequiredService<IOptions<CoreOptions>>().Value;
    }

    /// <summary>The unnamed client's options bound from <paramref name="sectionJson"/> by <c>AddEnyimMemcached(configuration)</c>.</summary>
    public static CoreOptions FromSection(string sectionJson) =>
        Options(services => services.AddEnyimMemcached(Configuration(sectionJson)));

    /// <summary>The unnamed client's transcoder bound from <paramref name="sectionJson"/>.</summary>
    public static ITranscoder Transcoder(string sectionJson) => FromSection(sectionJson).Transcoder!;
}
