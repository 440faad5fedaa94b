using System.Globalization;
using CacheSerializer.Memcached;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;

namespace CacheSerializer.LoadTest.Migrate;

/// <summary>
/// The configuration of the migration's web servers, and the one way a new web server gets its client from it: as an
/// application does, <c>new ServiceCollection().AddLogging().AddMemcached(section)</c>, then the
/// <see cref="MemcachedClient"/> resolved.
/// </summary>
/// <remarks>
/// The old servers' section has EnyimMemcachedCore's shape; the new servers of the Enyim-shaped path are bound from the
/// very same section (the second step adds <c>"ProtobufTranscoder": { "ObjectFormat": "Protobuf" }</c> to it), those of
/// the contrast from a section of this package's own shape.
/// </remarks>
internal static class MigrationClients
{
    /// <summary>The name of EnyimMemcachedCore's configuration section (its README's <c>AddEnyimMemcached</c> binds it).</summary>
    public const string EnyimSectionName = "enyimMemcached";

    /// <summary>The name of this package's configuration section (docs/client.md).</summary>
    public const string OwnSectionName = "Memcached";

    /// <summary>Returns the old application's section, in EnyimMemcachedCore's shape:
    /// <c>"enyimMemcached": { "Servers": [ { "Address": "127.0.0.1", "Port": 11211 }, ... ] }</c>; with
    /// <paramref name="secondStep"/>, object writes flipped to protobuf: <c>"ProtobufTranscoder": { "ObjectFormat": "Protobuf" }</c> added.</summary>
    /// <param name="endpoints">The memcached servers, <c>host:port</c>.</param>
    /// <param name="secondStep">Whether the section is the second step's.</param>
    /// <returns>The section.</returns>
    public static IConfigurationSection EnyimSection(IReadOnlyList<string> endpoints, bool secondStep)
    {
        var values = new Dictionary<string, string?>(StringComparer.Ordinal);
        for (int i = 0; i < endpoints.Count; i++)
        {
            int colon = endpoints[i].LastIndexOf(':');
            values[Path(EnyimSectionName, "Servers", i, "Address")] = endpoints[i][..colon];
            values[Path(EnyimSectionName, "Servers", i, "Port")] = endpoints[i][(colon + 1)..];
        }

        if (secondStep)
        {
            values[$"{EnyimSectionName}:{MemcachedServiceCollectionExtensions.TranscoderSectionName}:ObjectFormat"] = nameof(TranscoderObjectFormat.Protobuf);
        }

        return new ConfigurationBuilder().AddInMemoryCollection(values).Build().GetSection(EnyimSectionName);
    }

    /// <summary>Returns a section of this package's own shape: <c>"Memcached": { "Servers": ["127.0.0.1:11211", ...] }</c>
    /// (every other setting its default: ketama placement, objects written as protobuf).</summary>
    /// <param name="endpoints">The memcached servers, <c>host:port</c>.</param>
    /// <returns>The section.</returns>
    public static IConfigurationSection OwnSection(IReadOnlyList<string> endpoints)
    {
        var values = new Dictionary<string, string?>(StringComparer.Ordinal);
        for (int i = 0; i < endpoints.Count; i++)
        {
            values[string.Create(CultureInfo.InvariantCulture, $"{OwnSectionName}:Servers:{i}")] = endpoints[i];
        }

        return new ConfigurationBuilder().AddInMemoryCollection(values).Build().GetSection(OwnSectionName);
    }

    /// <summary>Creates a new web server's services from its configuration section, as the application would
    /// (<c>new ServiceCollection().AddLogging().AddMemcached(section)</c>: the package binds either shape, an
    /// EnyimMemcachedCore one as it is), with its client's transcoder wrapped (the scenario's counts: what it writes,
    /// what it cannot read).</summary>
    /// <param name="section">The section: <see cref="EnyimSection"/> or <see cref="OwnSection"/>.</param>
    /// <param name="wrapTranscoder">Wraps the transcoder the section configures.</param>
    /// <returns>The services; <see cref="MemcachedClient"/> resolves the client.</returns>
    public static ServiceProvider FromSection(IConfigurationSection section, Func<ITranscoder, ITranscoder> wrapTranscoder)
    {
        ArgumentNullException.ThrowIfNull(section);
        IServiceCollection services = new ServiceCollection().AddLogging().AddMemcached(section);

        // After the binding's own post-configuration: the transcoder it chose, or the client's default when it chose
        // none (PackageDefaults: the package's transcoder with the client's MaxValueSize), wrapped.
        services.PostConfigure<MemcachedClientOptions>(options =>
            options.Transcoder = wrapTranscoder(options.Transcoder ?? new ProtobufTranscoder(new ProtobufTranscoderOptions { MaxValueSize = options.MaxValueSize })));
        return services.BuildServiceProvider();
    }

    private static string Path(string section, string list, int index, string name) =>
        string.Create(CultureInfo.InvariantCulture, $"{section}:{list}:{index}:{name}");
}
