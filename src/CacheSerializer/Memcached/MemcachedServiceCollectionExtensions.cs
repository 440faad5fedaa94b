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

/// <summary>Registers the memcached client, <see cref="IMemcachedClient"/> and its <see cref="IDistributedCache"/> in a service
/// collection, and further clusters as named (keyed) clients.</summary>
public static class MemcachedServiceCollectionExtensions
{
    /// <summary>The subsection of the client's section whose values bind to <see cref="ProtobufTranscoderOptions"/>.</summary>
    public const string TranscoderSectionName = "ProtobufTranscoder";

    private const string FromCode = "an Action<MemcachedClientOptions>";

    /// <summary>
    /// Registers a singleton <see cref="MemcachedClient"/> configured in code, also as <see cref="IMemcachedClient"/>, and
    /// makes it the <see cref="IDistributedCache"/>.
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">Sets the options (at least one server).</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="configure"/> is null.</exception>
    /// <exception cref="InvalidOperationException">The unnamed client is already registered: a second set of servers is a
    /// second client, registered with <see cref="AddKeyedMemcached(IServiceCollection, string, Action{MemcachedClientOptions})"/>.</exception>
    /// <remarks>The options are validated when the host starts (<c>ValidateOnStart</c>): an invalid one stops it with an
    /// <see cref="OptionsValidationException"/> listing every problem, each naming the setting and the fix. Without a
    /// host, the client is validated when first resolved (<see cref="MemcachedConfigurationException"/>). With a host,
    /// the client is built at start-up and logs its servers and settings once.</remarks>
    public static IServiceCollection AddMemcached(this IServiceCollection services, Action<MemcachedClientOptions> configure)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configure);
        Register(services, name: null, FromCode);
        services.AddOptions<MemcachedClientOptions>().Configure(configure);
        return AddCore(services, name: null);
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
    /// <exception cref="InvalidOperationException">The unnamed client is already registered: a second set of servers is a
    /// second client, registered with <see cref="AddKeyedMemcached(IServiceCollection, string, IConfiguration)"/>.</exception>
    /// <remarks>
    /// The options are validated when the host starts (<c>ValidateOnStart</c>): an invalid one stops it with an
    /// <see cref="OptionsValidationException"/> listing every problem, each naming the setting's path in the configuration
    /// and the fix: the client's settings, the transcoder's, and keys that are no setting (a misspelt one, a transcoder
    /// setting outside the <c>ProtobufTranscoder</c> subsection), which would otherwise be ignored. Without a host, the
    /// client is validated when first resolved. The transcoder's limit is the client's
    /// <see cref="MemcachedClientOptions.MaxValueSize"/>.
    /// <para>An EnyimMemcachedCore section (<c>"enyimMemcached"</c>, its servers as <c>{ "Address": ..., "Port": ... }</c>
    /// objects, or any of its own settings) binds as it is: keys are placed as EnyimMemcachedCore places them and objects
    /// are written as its configured transcoder writes them (the migration phase) until <c>ProtobufTranscoder:ObjectFormat</c>
    /// is <c>Protobuf</c>; each of its settings is mapped or refused at start-up naming what to do
    /// (docs/migrating-from-enyim.md). <c>"Transcoder": "MessagePackTranscoder"</c> needs the compatibility package
    /// CacheSerializer.Enyim and its <c>AddEnyimMemcached</c>: here it is refused.</para>
    /// </remarks>
    public static IServiceCollection AddMemcached(this IServiceCollection services, IConfiguration configuration)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configuration);
        Register(services, name: null, FromSection(configuration));
        Bind(services.AddOptions<MemcachedClientOptions>(), configuration);
        return AddCore(services, name: null);
    }

    /// <summary>
    /// Registers a second (third, ...) cluster: a singleton <see cref="MemcachedClient"/> named <paramref name="name"/>,
    /// configured in code, with its own servers, ring and options, resolvable as the keyed services
    /// <c>[FromKeyedServices(name)] MemcachedClient</c> and <c>[FromKeyedServices(name)] IMemcachedClient</c>.
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <param name="name">The client's name: its service key, and the name of its <see cref="MemcachedClientOptions"/>
    /// (<c>IOptionsMonitor&lt;MemcachedClientOptions&gt;.Get(name)</c>).</param>
    /// <param name="configure">Sets the options (at least one server).</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/>, <paramref name="name"/> or <paramref name="configure"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="name"/> is empty or white space.</exception>
    /// <exception cref="InvalidOperationException">A client is already registered under <paramref name="name"/>.</exception>
    /// <remarks>The client is validated, built and probed at start-up as the unnamed one is (each problem prefixed with
    /// <c>memcached client 'name':</c>). It does not become the application's <see cref="IDistributedCache"/>: call
    /// <see cref="AddKeyedMemcachedDistributedCache"/> for a keyed one.</remarks>
    public static IServiceCollection AddKeyedMemcached(this IServiceCollection services, string name, Action<MemcachedClientOptions> configure)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(configure);
        Register(services, name, FromCode);
        services.AddOptions<MemcachedClientOptions>(name).Configure(configure);
        return AddCore(services, name);
    }

    /// <summary>
    /// Registers a second (third, ...) cluster: a singleton <see cref="MemcachedClient"/> named <paramref name="name"/>,
    /// bound to a configuration section as <see cref="AddMemcached(IServiceCollection, IConfiguration)"/> binds one (an
    /// EnyimMemcachedCore section included), with its own servers, ring and options, resolvable as the keyed services
    /// <c>[FromKeyedServices(name)] MemcachedClient</c> and <c>[FromKeyedServices(name)] IMemcachedClient</c>.
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <param name="name">The client's name: its service key, and the name of its <see cref="MemcachedClientOptions"/>
    /// (<c>IOptionsMonitor&lt;MemcachedClientOptions&gt;.Get(name)</c>).</param>
    /// <param name="configuration">The client's section, as for <see cref="AddMemcached(IServiceCollection, IConfiguration)"/>.</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/>, <paramref name="name"/> or <paramref name="configuration"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="name"/> is empty or white space.</exception>
    /// <exception cref="InvalidOperationException">A client is already registered under <paramref name="name"/>.</exception>
    /// <remarks>The client is validated, built and probed at start-up as the unnamed one is (each problem prefixed with
    /// <c>memcached client 'name':</c>, then the setting's path). It does not become the application's
    /// <see cref="IDistributedCache"/>: call <see cref="AddKeyedMemcachedDistributedCache"/> for a keyed one.</remarks>
    public static IServiceCollection AddKeyedMemcached(this IServiceCollection services, string name, IConfiguration configuration)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(configuration);
        Register(services, name, FromSection(configuration));
        Bind(services.AddOptions<MemcachedClientOptions>(name), configuration);
        return AddCore(services, name);
    }

    /// <summary>
    /// Registers the keyed <see cref="IDistributedCache"/> <c>[FromKeyedServices(name)] IDistributedCache</c> over the
    /// client named <paramref name="name"/>; the application's unkeyed <see cref="IDistributedCache"/> is left as it is.
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <param name="name">The name the client was registered with by <c>AddKeyedMemcached</c>.</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="name"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="name"/> is empty or white space.</exception>
    /// <exception cref="InvalidOperationException">No client is registered under <paramref name="name"/> yet: call
    /// <c>AddKeyedMemcached</c> first.</exception>
    /// <remarks>To make it the unkeyed one (what ASP.NET session state and HybridCache resolve), register
    /// <c>services.AddSingleton&lt;IDistributedCache&gt;(sp =&gt; sp.GetRequiredKeyedService&lt;IDistributedCache&gt;(name))</c>
    /// after it (docs/client.md, "Several clusters").</remarks>
    public static IServiceCollection AddKeyedMemcachedDistributedCache(this IServiceCollection services, string name)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        if (MemcachedRegistration.Find(services, name) is null)
        {
            throw new InvalidOperationException(
                $"AddKeyedMemcachedDistributedCache(\"{name}\") found no memcached client named '{name}': call services.AddKeyedMemcached(\"{name}\", ...) before it.");
        }

        services.AddKeyedSingleton<IDistributedCache>(name, static (provider, key) =>
            new MemcachedDistributedCache(provider.GetRequiredKeyedService<MemcachedEngine>(key)));
        return services;
    }

    /// <summary>Binds a client's section into the options of that name: the package's own shape or EnyimMemcachedCore's,
    /// unknown keys refused, the transcoder built from its subsection.</summary>
    private static void Bind(OptionsBuilder<MemcachedClientOptions> builder, IConfiguration configuration)
    {
        if (EnyimSection.IsEnyimShape(configuration))
        {
            BindEnyim(builder, _ => configuration);
            return;
        }

        builder.Bind(configuration)
            .Configure(options => OwnSection.FindUnknownKeys(configuration, TranscoderSectionName, options.BindingProblems))
            .PostConfigure(options => BuildTranscoder(options, configuration, enyim: false));
    }

    /// <summary>Binds an EnyimMemcachedCore section, found when the options are first built (the compatibility package's
    /// <c>AddEnyimMemcached(sectionKey)</c> reads it from the application's <see cref="IConfiguration"/>, as
    /// EnyimMemcachedCore's <c>BindConfiguration</c> does), into the options of that name.</summary>
    internal static void BindEnyim(OptionsBuilder<MemcachedClientOptions> builder, Func<IServiceProvider, IConfiguration> section)
    {
        builder.Configure<IServiceProvider>((options, provider) => EnyimSection.Apply(section(provider), options))
            .PostConfigure<IServiceProvider>((options, provider) => BuildTranscoder(options, section(provider), enyim: true));
    }

    /// <summary>Builds the client's transcoder from the section's transcoder subsection, unless one was set in code. An
    /// EnyimMemcachedCore section starts in the migration phase: objects written as its transcoder writes them.</summary>
    private static void BuildTranscoder(MemcachedClientOptions options, IConfiguration configuration, bool enyim)
    {
        IConfigurationSection transcoderSection = configuration.GetSection(TranscoderSectionName);
        if (options.Transcoder is not null || !(enyim || transcoderSection.Exists()))
        {
            return;
        }

        var transcoderOptions = new ProtobufTranscoderOptions { ObjectFormat = enyim ? TranscoderObjectFormat.EnyimBson : TranscoderObjectFormat.Protobuf };
        transcoderSection.Bind(transcoderOptions);
        FallbackTypesSetting.Bind(transcoderSection, transcoderOptions, options.BindingProblems);
        transcoderOptions.MaxValueSize = options.MaxValueSize;
        if (enyim)
        {
            EnyimTranscoderSetting.Apply(options, transcoderOptions, (configuration as IConfigurationSection)?.Path ?? string.Empty);
        }

        // Reported with the client's own problems, at start-up, each under its path in the configuration (the limit is
        // the client's MaxValueSize, checked as the client's).
        foreach ((string property, string problem) in transcoderOptions.Problems().Where(static p => p.Property != nameof(ProtobufTranscoderOptions.MaxValueSize)))
        {
            options.BindingProblems.Add(new MemcachedConfigurationException(property, $"{transcoderSection.Path}:{property}: {problem}"));
        }

        if (options.BindingProblems.Count == 0)
        {
            options.Transcoder = PackageDefaults.CreateTranscoder(options.MaxValueSize, transcoderOptions);
            options.TranscoderDescription = DescribeTranscoder(transcoderOptions);
            options.BoundObjectFormat = transcoderOptions.ObjectFormat;
        }
    }

    /// <summary>Records the client's registration, refusing a second one of the same client: its options would merge
    /// (two server lists in one ring, so keys move between the clusters), which the configuration system does silently.</summary>
    /// <exception cref="InvalidOperationException">The client is already registered.</exception>
    internal static void Register(IServiceCollection services, string? name, string source)
    {
        if (MemcachedRegistration.Find(services, name) is { } first)
        {
            (string call, string another, string configure) = name is null
                ? ("AddMemcached was called twice", "a name of its own (services.AddKeyedMemcached(\"<name>\", ...), resolved as [FromKeyedServices(\"<name>\")] IMemcachedClient)", "(...)")
                : ($"AddKeyedMemcached was called twice with the name '{name}'", "another name", $"(\"{name}\", ...)");
            throw new InvalidOperationException(
                $"{call}: {first.Description} is already registered from {first.Source}, and this call (from {source}) would add its servers to the same client's ring, "
                + $"so keys would move between the two clusters. Register another cluster under {another}; to change the registered client's settings, call services.Configure<MemcachedClientOptions>{configure}.");
        }

        services.AddSingleton(new MemcachedRegistration(name, source));
    }

    internal static string FromSection(IConfiguration configuration) =>
        configuration is IConfigurationSection section ? $"configuration section '{section.Path}'" : "a configuration root";

    /// <summary>Registers the client's engine, front and start-up; the unnamed client also becomes the
    /// <see cref="IDistributedCache"/> unless <paramref name="asDistributedCache"/> is false (EnyimMemcachedCore's
    /// <c>AddEnyimMemcached(..., asDistributedCache: false)</c>).</summary>
    internal static IServiceCollection AddCore(IServiceCollection services, string? name, bool asDistributedCache = true)
    {
        services.AddOptions<MemcachedClientOptions>(name ?? Microsoft.Extensions.Options.Options.DefaultName).ValidateOnStart();
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<MemcachedClientOptions>, RegisteredClientsValidator>());
        if (name is null)
        {
            // One engine per client and service provider, shared by the client (its front) and the hosting adapters.
            services.TryAddSingleton(static provider => new MemcachedEngine(
                provider.GetRequiredService<IOptions<MemcachedClientOptions>>().Value,
                provider.GetService<ILoggerFactory>()));
            services.TryAddSingleton(static provider => new MemcachedClient(provider.GetRequiredService<MemcachedEngine>()));
            services.TryAddSingleton<IMemcachedClient>(static provider => provider.GetRequiredService<MemcachedClient>());
            if (asDistributedCache)
            {
                services.Replace(ServiceDescriptor.Singleton<IDistributedCache>(static provider =>
                    new MemcachedDistributedCache(provider.GetRequiredService<MemcachedEngine>())));
            }
        }
        else
        {
            services.AddKeyedSingleton(name, static (provider, key) => new MemcachedEngine(
                provider.GetRequiredService<IOptionsMonitor<MemcachedClientOptions>>().Get((string)key!),
                provider.GetService<ILoggerFactory>()));
            services.AddKeyedSingleton(name, static (provider, key) => new MemcachedClient(provider.GetRequiredKeyedService<MemcachedEngine>(key)));
            services.AddKeyedSingleton<IMemcachedClient>(name, static (provider, key) => provider.GetRequiredKeyedService<MemcachedClient>(key));
        }

        services.TryAddEnumerable(ServiceDescriptor.Singleton<IHostedService, MemcachedStartup>());
        return services;
    }

    /// <summary>The transcoder's settings in words, for the client's start-up log.</summary>
    private static string DescribeTranscoder(ProtobufTranscoderOptions options) =>
        string.Create(CultureInfo.InvariantCulture, $"ProtobufTranscoder (objects as {options.ObjectFormat}, compression {options.Compression}") +
        (options.Compression == TranscoderCompression.None ? string.Empty : string.Create(CultureInfo.InvariantCulture, $" from {options.CompressionThreshold} bytes at level {options.CompressionLevel}, {(options.CompressStringsAndBytes ? "objects, strings and byte arrays" : "objects only")}")) +
        string.Create(CultureInfo.InvariantCulture, $", MaxValueSize {options.MaxValueSize} bytes, {options.TypeAliases.Count} type aliases, {options.KnownTypes.Count} known types, {options.Codecs.Count} codecs, BinaryFormatter fallback for {options.BinaryFormatterFallbackTypes.Count} types)");
}
