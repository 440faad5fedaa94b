using System.Globalization;
using CacheSerializer;
using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Configuration;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Hosting;
using Microsoft.Extensions.Caching.Distributed;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Registers the memcached client, <see cref="IMemcachedClient"/> and its <see cref="IDistributedCache"/> in a service collection.</summary>
public static class MemcachedServiceCollectionExtensions
{
    /// <summary>The subsection of the client's section whose values bind to <see cref="ProtobufTranscoderOptions"/>.</summary>
    public const string TranscoderSectionName = "ProtobufTranscoder";

    /// <summary>
    /// Registers a singleton <see cref="MemcachedClient"/> configured in code, also as <see cref="IMemcachedClient"/>, and
    /// makes it the <see cref="IDistributedCache"/>.
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">Sets the options (at least one server).</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="configure"/> is null.</exception>
    /// <remarks>The options are validated when the host starts (<c>ValidateOnStart</c>): an invalid one stops it with an
    /// <see cref="OptionsValidationException"/> listing every problem, each naming the setting and the fix. Without a
    /// host, the client is validated when first resolved (<see cref="MemcachedConfigurationException"/>). With a host,
    /// the client is built at start-up and logs its servers and settings once.</remarks>
    public static IServiceCollection AddMemcached(this IServiceCollection services, Action<MemcachedClientOptions> configure)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configure);
        services.AddOptions<MemcachedClientOptions>().Configure(configure);
        return AddCore(services);
    }

    /// <summary>
    /// Registers a singleton <see cref="MemcachedClient"/> bound to a configuration section (for example
    /// <c>"Memcached": { "Servers": ["127.0.0.1:11211"], "ProtobufTranscoder": { "Compression": "Brotli" } }</c>), also as
    /// <see cref="IMemcachedClient"/>, and makes it the <see cref="IDistributedCache"/>.
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <param name="configuration">The section holding the <see cref="MemcachedClientOptions"/> properties, and optionally a
    /// <c>ProtobufTranscoder</c> subsection holding <see cref="ProtobufTranscoderOptions"/> properties for the package's transcoder.</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="configuration"/> is null.</exception>
    /// <remarks>
    /// The options are validated when the host starts (<c>ValidateOnStart</c>): an invalid one stops it with an
    /// <see cref="OptionsValidationException"/> listing every problem, each naming the setting's path in the configuration
    /// and the fix: the client's settings, the transcoder's, and keys that are no setting (a misspelt one, a transcoder
    /// setting outside the <c>ProtobufTranscoder</c> subsection), which would otherwise be ignored. Without a host, the
    /// client is validated when first resolved. The transcoder's limit is the client's
    /// <see cref="MemcachedClientOptions.MaxValueSize"/>.
    /// <para>An EnyimMemcachedCore section (<c>"enyimMemcached"</c>, its servers as <c>{ "Address": ..., "Port": ... }</c>
    /// objects, or any of its own settings) binds as it is: keys are placed as EnyimMemcachedCore places them and objects
    /// are written as its DefaultTranscoder writes them (the migration phase) until <c>ProtobufTranscoder:ObjectFormat</c>
    /// is <c>Protobuf</c>; each of its settings is mapped or refused at start-up naming what to do
    /// (docs/migrating-from-enyim.md).</para>
    /// </remarks>
    public static IServiceCollection AddMemcached(this IServiceCollection services, IConfiguration configuration)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configuration);
        IConfigurationSection transcoderSection = configuration.GetSection(TranscoderSectionName);
        bool enyim = EnyimSection.IsEnyimShape(configuration);
        OptionsBuilder<MemcachedClientOptions> builder = services.AddOptions<MemcachedClientOptions>();
        _ = enyim
            ? builder.Configure(options => EnyimSection.Apply(configuration, options))
            : builder.Bind(configuration).Configure(options => OwnSection.FindUnknownKeys(configuration, TranscoderSectionName, options.BindingProblems));
        builder.PostConfigure(options =>
        {
            // An EnyimMemcachedCore section starts in the migration phase: objects written as its DefaultTranscoder does.
            if (options.Transcoder is null && (enyim || transcoderSection.Exists()))
            {
                var transcoderOptions = new ProtobufTranscoderOptions { ObjectFormat = enyim ? TranscoderObjectFormat.EnyimBson : TranscoderObjectFormat.Protobuf };
                transcoderSection.Bind(transcoderOptions);
                transcoderOptions.MaxValueSize = options.MaxValueSize;

                // Reported with the client's own problems, at start-up, each under its path in the configuration (the
                // limit is the client's MaxValueSize, checked as the client's).
                foreach ((string property, string problem) in transcoderOptions.Problems().Where(static p => p.Property != nameof(ProtobufTranscoderOptions.MaxValueSize)))
                {
                    options.BindingProblems.Add(new MemcachedConfigurationException(property, $"{transcoderSection.Path}:{property}: {problem}"));
                }

                if (options.BindingProblems.Count == 0)
                {
                    options.Transcoder = PackageDefaults.CreateTranscoder(options.MaxValueSize, transcoderOptions);
                    options.TranscoderDescription = DescribeTranscoder(transcoderOptions);
                }
            }
        });
        return AddCore(services);
    }

    private static IServiceCollection AddCore(IServiceCollection services)
    {
        services.AddOptions<MemcachedClientOptions>().ValidateOnStart();
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<MemcachedClientOptions>, MemcachedOptionsValidator>());
        // One engine per service provider, shared by the client (its front) and the hosting adapters.
        services.TryAddSingleton(static provider => new MemcachedEngine(
            provider.GetRequiredService<IOptions<MemcachedClientOptions>>().Value,
            provider.GetService<ILoggerFactory>()));
        services.TryAddSingleton(static provider => new MemcachedClient(provider.GetRequiredService<MemcachedEngine>()));
        services.TryAddSingleton<IMemcachedClient>(static provider => provider.GetRequiredService<MemcachedClient>());
        services.Replace(ServiceDescriptor.Singleton<IDistributedCache>(static provider =>
            new MemcachedDistributedCache(provider.GetRequiredService<MemcachedEngine>())));
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IHostedService, MemcachedStartup>());
        return services;
    }

    /// <summary>The transcoder's settings in words, for the client's start-up log.</summary>
    private static string DescribeTranscoder(ProtobufTranscoderOptions options) =>
        string.Create(CultureInfo.InvariantCulture, $"ProtobufTranscoder (objects as {options.ObjectFormat}, compression {options.Compression}") +
        (options.Compression == TranscoderCompression.None ? string.Empty : string.Create(CultureInfo.InvariantCulture, $" from {options.CompressionThreshold} bytes at level {options.CompressionLevel}, {(options.CompressStringsAndBytes ? "objects, strings and byte arrays" : "objects only")}")) +
        string.Create(CultureInfo.InvariantCulture, $", MaxValueSize {options.MaxValueSize} bytes, {options.TypeAliases.Count} type aliases, {options.KnownTypes.Count} known types, {options.Codecs.Count} codecs, BinaryFormatter fallback for {options.BinaryFormatterFallbackTypes.Count} types)");
}
