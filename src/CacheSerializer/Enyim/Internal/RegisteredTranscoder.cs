using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Configuration;
using Microsoft.Extensions.DependencyInjection;
using CoreOptions = CacheSerializer.Memcached.MemcachedClientOptions;

namespace CacheSerializer.Enyim.Internal;

/// <summary>
/// An EnyimMemcachedCore <c>ITranscoder</c> the application registered in DI. Its unnamed client uses one when the
/// section names no transcoder (MemcachedClientConfiguration's <c>transcoder</c> parameter, cnblogs/EnyimMemcachedCore at
/// e383c4c7, src/Enyim.Caching/Configuration/MemcachedClientConfiguration.cs; <c>AddEnyimMemcached</c> registers
/// DefaultTranscoder only if none is). Its own transcoders map as their names do; an application's own is refused.
/// </summary>
internal static class RegisteredTranscoder
{
    private const string ServiceTypeName = "Enyim.Caching.Memcached.ITranscoder";

    /// <summary>EnyimMemcachedCore's transcoders by full name.</summary>
    private static readonly Dictionary<string, EnyimTranscoder> Known = new(StringComparer.Ordinal)
    {
        ["Enyim.Caching.Memcached.DefaultTranscoder"] = EnyimTranscoder.Default,
        ["Enyim.Caching.Memcached.DataContractTranscoder"] = EnyimTranscoder.Default,
        ["Enyim.Caching.Memcached.Transcoders.MessagePackTranscoder"] = EnyimTranscoder.MessagePack,
        ["Enyim.Caching.Memcached.Transcoders.BinaryFormatterTranscoder"] = EnyimTranscoder.BinaryFormatter,
    };

    /// <summary>Sets the options' EnyimMemcachedCore transcoder from the last such registration, when the section names none.</summary>
    public static void Apply(IServiceCollection services, CoreOptions options)
    {
        if (options.EnyimTranscoderNamed
            || services.LastOrDefault(static d => !d.IsKeyedService && d.ServiceType.FullName == ServiceTypeName) is not { } registration)
        {
            return;
        }

        Type? implementation = registration.ImplementationType ?? registration.ImplementationInstance?.GetType();
        if (implementation?.FullName is { } fullName && Known.TryGetValue(fullName, out EnyimTranscoder transcoder))
        {
            options.EnyimTranscoder = transcoder;
            return;
        }

        string what = implementation is null ? "a factory" : implementation.FullName ?? implementation.Name;
        options.BindingProblems.Add(new MemcachedConfigurationException("Transcoder", $"services registers {what} as EnyimMemcachedCore's ITranscoder, "
            + "which its client used for every item: an application's own transcoder, whose items only its own code reads. This package reads and writes "
            + "EnyimMemcachedCore's DefaultTranscoder, DataContractTranscoder, MessagePackTranscoder and BinaryFormatterTranscoder items; switch the "
            + "EnyimMemcachedCore applications to one of those first, or remove the registration and accept that the cache starts cold "
            + "(docs/migrating-from-enyim.md, \"Transcoders\")"));
    }
}
