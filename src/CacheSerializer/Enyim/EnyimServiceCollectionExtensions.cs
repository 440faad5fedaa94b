using CacheSerializer.Enyim.Internal;
using CacheSerializer.Memcached.Internal.Configuration;
using Microsoft.Extensions.Caching.Distributed;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;
using CoreOptions = CacheSerializer.Memcached.MemcachedClientOptions;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>
/// Registers the memcached client with EnyimMemcachedCore's <c>AddEnyimMemcached</c> overloads (cnblogs/EnyimMemcachedCore
/// at e383c4c7, src/Enyim.Caching/EnyimMemcachedServiceCollectionExtensions.cs): an application switching keeps its
/// registration line, its section and its code-configured options. Every shape reaches the same client: keys placed as
/// EnyimMemcachedCore places them, objects read and (until <c>ProtobufTranscoder:ObjectFormat</c> is <c>Protobuf</c>)
/// written as its configured transcoder writes them, each setting mapped or refused at start-up by one mapping
/// (docs/migrating-from-enyim.md).
/// </summary>
// The overloads and their optional parameters are EnyimMemcachedCore's, so its call sites compile unchanged (RS0026, RS0027).
#pragma warning disable RS0026, RS0027
public static partial class EnyimServiceCollectionExtensions
{
    /// <summary>EnyimMemcachedCore's default section key.</summary>
    private const string DefaultSectionKey = "enyimMemcached";

    /// <summary>The section a code-configured client's settings are mapped under; messages name it (<c>MemcachedClientOptions:Authentication: ...</c>).</summary>
    private const string CodeSection = "MemcachedClientOptions";

    /// <summary>
    /// Registers the client bound to the section <paramref name="sectionKey"/> of the application's
    /// <see cref="IConfiguration"/> (resolved from the container, as EnyimMemcachedCore's <c>BindConfiguration</c> does).
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <param name="sectionKey">The section's key.</param>
    /// <param name="asDistributedCache">Whether the client also becomes the application's <see cref="IDistributedCache"/>.</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> is null, or <paramref name="sectionKey"/> is null or empty.</exception>
    /// <exception cref="InvalidOperationException">The client is already registered (a second cluster is <c>AddEnyimMemcached&lt;T&gt;</c>).</exception>
    public static IServiceCollection AddEnyimMemcached(this IServiceCollection services, string sectionKey = DefaultSectionKey, bool asDistributedCache = true)
    {
        ArgumentNullException.ThrowIfNull(services);
        ThrowIfNullOrEmpty(sectionKey);
        return Add(services, name: null, provider => provider.GetRequiredService<IConfiguration>().GetSection(sectionKey), $"configuration section '{sectionKey}'", asDistributedCache);
    }

    /// <summary>Registers the client configured in code, with EnyimMemcachedCore's option members (<c>o =&gt; o.AddServer("127.0.0.1", 11211)</c>).</summary>
    /// <param name="services">The service collection.</param>
    /// <param name="setupAction">Sets the options; each member set is mapped or refused as the same setting in a section.</param>
    /// <param name="asDistributedCache">Whether the client also becomes the application's <see cref="IDistributedCache"/>.</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="setupAction"/> is null.</exception>
    /// <exception cref="InvalidOperationException">The client is already registered.</exception>
    /// <remarks>The options are run when the client is first built; a setting refused stops the start with its member's
    /// path (<c>MemcachedClientOptions:Authentication: ...</c>) and what to do.</remarks>
    public static IServiceCollection AddEnyimMemcached(this IServiceCollection services, Action<CacheSerializer.Enyim.MemcachedClientOptions> setupAction, bool asDistributedCache = true)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(setupAction);
        IConfiguration? section = null;
        return Add(services, name: null, _ => section ??= CodeConfigured(setupAction), "an Action<MemcachedClientOptions> (EnyimMemcachedCore's shape)", asDistributedCache);
    }

    /// <summary>Registers the client bound to <paramref name="configurationSection"/>.</summary>
    /// <param name="services">The service collection.</param>
    /// <param name="configurationSection">The client's section, in EnyimMemcachedCore's shape.</param>
    /// <param name="asDistributedCache">Whether the client also becomes the application's <see cref="IDistributedCache"/>.</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="configurationSection"/> is null.</exception>
    /// <exception cref="InvalidOperationException">The client is already registered.</exception>
    public static IServiceCollection AddEnyimMemcached(this IServiceCollection services, IConfigurationSection configurationSection, bool asDistributedCache)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configurationSection);
        return Add(services, name: null, _ => configurationSection, MemcachedServiceCollectionExtensions.FromSection(configurationSection), asDistributedCache);
    }

    /// <summary>Registers the client bound to the section <paramref name="sectionKey"/> of <paramref name="configuration"/>.</summary>
    /// <param name="services">The service collection.</param>
    /// <param name="configuration">The application's configuration.</param>
    /// <param name="sectionKey">The section's key.</param>
    /// <param name="asDistributedCache">Whether the client also becomes the application's <see cref="IDistributedCache"/>.</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="configuration"/> is null.</exception>
    /// <exception cref="InvalidOperationException">The client is already registered.</exception>
    public static IServiceCollection AddEnyimMemcached(this IServiceCollection services, IConfiguration configuration, string sectionKey = DefaultSectionKey, bool asDistributedCache = true)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configuration);
        IConfigurationSection section = configuration.GetSection(sectionKey);
        return Add(services, name: null, _ => section, MemcachedServiceCollectionExtensions.FromSection(section), asDistributedCache);
    }

    /// <summary>
    /// Registers a second cluster bound to the section <paramref name="sectionKey"/> of the application's
    /// <see cref="IConfiguration"/>: a named core client (<see cref="ClientName{T}"/>) with its own servers, ring and options,
    /// resolved through <c>IMemcachedClient&lt;T&gt;</c>. It is not the application's <see cref="IDistributedCache"/>, as in
    /// EnyimMemcachedCore.
    /// </summary>
    /// <typeparam name="T">The marker that tells the cluster apart.</typeparam>
    /// <param name="services">The service collection.</param>
    /// <param name="sectionKey">The section's key.</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> is null, or <paramref name="sectionKey"/> is null or empty.</exception>
    /// <exception cref="InvalidOperationException">A cluster of the same <typeparamref name="T"/> is already registered.</exception>
    public static IServiceCollection AddEnyimMemcached<T>(this IServiceCollection services, string sectionKey)
    {
        ArgumentNullException.ThrowIfNull(services);
        ThrowIfNullOrEmpty(sectionKey);
        return Add(services, ClientName<T>(), provider => provider.GetRequiredService<IConfiguration>().GetSection(sectionKey), $"configuration section '{sectionKey}'", asDistributedCache: false, typeof(T));
    }

    /// <summary>
    /// Registers a second cluster bound to the section <paramref name="sectionKey"/> of <paramref name="configuration"/>:
    /// a named core client (<see cref="ClientName{T}"/>) with its own servers, ring and options, resolved through
    /// <c>IMemcachedClient&lt;T&gt;</c>. It is not the application's <see cref="IDistributedCache"/>, as in EnyimMemcachedCore.
    /// </summary>
    /// <typeparam name="T">The marker that tells the cluster apart.</typeparam>
    /// <param name="services">The service collection.</param>
    /// <param name="configuration">The application's configuration.</param>
    /// <param name="sectionKey">The section's key.</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="configuration"/> is null.</exception>
    /// <exception cref="InvalidOperationException">A cluster of the same <typeparamref name="T"/> is already registered.</exception>
    public static IServiceCollection AddEnyimMemcached<T>(this IServiceCollection services, IConfiguration configuration, string sectionKey)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configuration);
        IConfigurationSection section = configuration.GetSection(sectionKey);
        return Add(services, ClientName<T>(), _ => section, MemcachedServiceCollectionExtensions.FromSection(section), asDistributedCache: false, typeof(T));
    }

    /// <summary>The name of the core client <c>AddEnyimMemcached&lt;T&gt;</c> registers: its service key
    /// (<c>[FromKeyedServices(name)] IMemcachedClient</c>) and the name of its options.</summary>
    /// <typeparam name="T">The cluster's marker.</typeparam>
    /// <returns><c>EnyimMemcached&lt;</c> and <typeparamref name="T"/>'s full name, then <c>&gt;</c>.</returns>
    public static string ClientName<T>() => $"EnyimMemcached<{typeof(T)}>";

    /// <summary>Registers the Enyim-shaped client over the core client <paramref name="name"/> (null: the unnamed one);
    /// <paramref name="marker"/> is <c>T</c> of <c>AddEnyimMemcached&lt;T&gt;</c>. Implemented beside the client surface.</summary>
    static partial void AddClientSurface(IServiceCollection services, string? name, Type? marker);

    private static IServiceCollection Add(IServiceCollection services, string? name, Func<IServiceProvider, IConfiguration> section, string source, bool asDistributedCache, Type? marker = null)
    {
        MemcachedServiceCollectionExtensions.Register(services, name, source);
        OptionsBuilder<CoreOptions> builder = services.AddOptions<CoreOptions>(name ?? Microsoft.Extensions.Options.Options.DefaultName);
        MemcachedServiceCollectionExtensions.BindEnyim(builder, section);

        // Before the transcoder is built (a post-configuration): the formats only this package reads and writes.
        builder.Configure(options => options.MessagePackObjects = MessagePackObjects.Instance);
        if (name is null)
        {
            // EnyimMemcachedCore's unnamed client takes an ITranscoder registered in DI when the section names none
            // (its AddEnyimMemcached<T> clients never do); read when the options are built, once every registration is in.
            builder.Configure(options => RegisteredTranscoder.Apply(services, options));
        }

        MemcachedServiceCollectionExtensions.AddCore(services, name, asDistributedCache);
        AddClientSurface(services, name, marker);
        return services;
    }

    /// <summary>The code-configured options as an EnyimMemcachedCore section, mapped by the same rules as one.</summary>
    private static IConfigurationSection CodeConfigured(Action<CacheSerializer.Enyim.MemcachedClientOptions> setupAction)
    {
        var options = new CacheSerializer.Enyim.MemcachedClientOptions();
        setupAction(options);
        return new ConfigurationBuilder()
            .AddInMemoryCollection(options.Settings().Select(static s => new KeyValuePair<string, string?>($"{CodeSection}:{s.Key}", s.Value)))
            .Build()
            .GetSection(CodeSection);
    }

    private static void ThrowIfNullOrEmpty(string sectionKey)
    {
        if (string.IsNullOrEmpty(sectionKey))
        {
            // EnyimMemcachedCore throws ArgumentNullException for an empty key too.
            throw new ArgumentNullException(nameof(sectionKey));
        }
    }
}
