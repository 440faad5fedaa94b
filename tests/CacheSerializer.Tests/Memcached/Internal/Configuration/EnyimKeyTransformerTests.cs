using System.Text;
using CacheSerializer.Memcached;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace CacheSerializer.Tests.Memcached.Internal.Configuration;

/// <summary>
/// An EnyimMemcachedCore section's <c>KeyTransformer</c> taken as EnyimMemcachedCore takes it. Its MemcachedClientConfiguration
/// constructor (cnblogs/EnyimMemcachedCore at e383c4c742190da94007579ccb7377443021a7eb, src/Enyim.Caching/Configuration/MemcachedClientConfiguration.cs)
/// calls <c>Type.GetType(options.KeyTransformer)</c> from the assembly <c>EnyimMemcachedCore</c> (src/Enyim.Caching/Enyim.Caching.csproj)
/// and keeps its DefaultKeyTransformer when that finds nothing or throws. Which names it finds was measured on .NET 10
/// with a signed assembly named EnyimMemcachedCore (its key.snk, version 3.4.0, public key token a1119483249f8bd0)
/// holding <c>Enyim.Caching.Memcached.SHA1KeyTransformer</c> and calling Type.GetType: found for the exact full name,
/// with or without an assembly part naming EnyimMemcachedCore in any case, any version at or below the one loaded, any
/// public key token, culture neutral; nothing for the short name, another case, surrounding spaces, the assembly
/// Enyim.Caching, or a culture such as en-US.
/// </summary>
public sealed class EnyimKeyTransformerTests
{
    private const string Servers = """ "Servers": [ { "Address": "10.0.0.1", "Port": 11211 } ] """;

    private const string Ignored = ", so EnyimMemcachedCore ignored it and kept keys unchanged (its DefaultKeyTransformer); "
        + "this client keeps them unchanged too, so both find the same items. ";

    private const string ReKeys = "in every application's setting at once (that re-keys the whole cache: every entry is missed once); else remove the setting";

    [Theory]
    [InlineData("Enyim.Caching.Memcached.SHA1KeyTransformer", MemcachedKeyTransformer.Sha1)]
    [InlineData("Enyim.Caching.Memcached.SHA1KeyTransformer,EnyimMemcachedCore", MemcachedKeyTransformer.Sha1)]
    [InlineData("Enyim.Caching.Memcached.SHA1KeyTransformer, enyimmemcachedcore", MemcachedKeyTransformer.Sha1)]
    [InlineData("Enyim.Caching.Memcached.SHA1KeyTransformer, EnyimMemcachedCore, Version=3.4.0.0, Culture=neutral, PublicKeyToken=a1119483249f8bd0", MemcachedKeyTransformer.Sha1)]
    [InlineData("Enyim.Caching.Memcached.Base64KeyTransformer, EnyimMemcachedCore, Version=2.0.0.0, PublicKeyToken=null", MemcachedKeyTransformer.Base64)]
    [InlineData("Enyim.Caching.Memcached.Base64KeyTransformer", MemcachedKeyTransformer.Base64)]
    [InlineData("Enyim.Caching.Memcached.DefaultKeyTransformer", MemcachedKeyTransformer.None)]
    [InlineData("", MemcachedKeyTransformer.None)]
    public void AddMemcached_NameEnyimMemcachedCoreResolves_MapsToItsTransformerWithoutWarning(string typeName, MemcachedKeyTransformer expected)
    {
        MemcachedClientOptions options = Bind(typeName);

        Assert.Equal(expected, options.KeyTransformer);
        Assert.Empty(options.BindingWarnings);
    }

    [Fact]
    public void AddMemcached_ShortSha1Name_KeepsKeysUnchangedAndWarnsWhatToWrite()
    {
        MemcachedClientOptions options = Bind("SHA1KeyTransformer");

        Assert.Equal(MemcachedKeyTransformer.None, options.KeyTransformer);
        Assert.Equal(
            "enyimMemcached:KeyTransformer: 'SHA1KeyTransformer' is not a type Type.GetType finds (it takes the exact full name, "
            + "Enyim.Caching.Memcached.SHA1KeyTransformer), so EnyimMemcachedCore ignored it and kept keys unchanged (its "
            + "DefaultKeyTransformer); this client keeps them unchanged too, so both find the same items. To really use "
            + "SHA1KeyTransformer, write \"Enyim.Caching.Memcached.SHA1KeyTransformer\" in every application's setting at once "
            + "(that re-keys the whole cache: every entry is missed once); else remove the setting",
            Assert.Single(options.BindingWarnings));
    }

    [Theory]
    [InlineData("Base64KeyTransformer", "is not a type Type.GetType finds (it takes the exact full name, Enyim.Caching.Memcached.Base64KeyTransformer)", "Base64KeyTransformer")]
    [InlineData("enyim.caching.memcached.sha1keytransformer", "is not a type Type.GetType finds (it takes the exact full name, Enyim.Caching.Memcached.SHA1KeyTransformer)", "SHA1KeyTransformer")]
    [InlineData(" Enyim.Caching.Memcached.SHA1KeyTransformer ", "is not a type Type.GetType finds (it takes the exact full name, Enyim.Caching.Memcached.SHA1KeyTransformer)", "SHA1KeyTransformer")]
    [InlineData("Enyim.Caching.Memcached.SHA1KeyTransformer, Enyim.Caching", "names the assembly Enyim.Caching, which does not exist (EnyimMemcachedCore's transformers are in the assembly EnyimMemcachedCore)", "SHA1KeyTransformer")]
    [InlineData("Enyim.Caching.Memcached.SHA1KeyTransformer, EnyimMemcachedCore, Culture=en-US", "has an assembly part, 'EnyimMemcachedCore, Culture=en-US', from which Type.GetType loads nothing (it takes EnyimMemcachedCore, with no culture but neutral)", "SHA1KeyTransformer")]
    public void AddMemcached_NameEnyimMemcachedCoreIgnores_KeepsKeysUnchangedAndWarns(string typeName, string why, string meant)
    {
        MemcachedClientOptions options = Bind(typeName);

        Assert.Equal(MemcachedKeyTransformer.None, options.KeyTransformer);
        Assert.Equal(
            $"enyimMemcached:KeyTransformer: '{typeName}' {why}{Ignored}To really use {meant}, write \"Enyim.Caching.Memcached.{meant}\" {ReKeys}",
            Assert.Single(options.BindingWarnings));
    }

    [Theory]
    [InlineData("Enyim.Caching.Memcached.SHA1KeyTranformer")]
    [InlineData("MyApp.LowerCaseKeys")]
    public void AddMemcached_MisspeltOrCustomNameWithoutAssembly_KeepsKeysUnchangedAndWarns(string typeName)
    {
        // Without an assembly part Type.GetType looks only in EnyimMemcachedCore and CoreLib: an application's own type is not found.
        MemcachedClientOptions options = Bind(typeName);

        Assert.Equal(MemcachedKeyTransformer.None, options.KeyTransformer);
        Assert.Equal(
            $"enyimMemcached:KeyTransformer: '{typeName}' is not one of EnyimMemcachedCore's key transformers, nor a type Type.GetType "
            + $"finds from its assembly{Ignored}To transform keys, write \"Enyim.Caching.Memcached.SHA1KeyTransformer\" or "
            + $"\"Enyim.Caching.Memcached.Base64KeyTransformer\" {ReKeys}",
            Assert.Single(options.BindingWarnings));
    }

    [Fact]
    public void AddMemcached_ShortTigerName_KeepsKeysUnchangedAndWarnsItIsNotOffered()
    {
        MemcachedClientOptions options = Bind("TigerHashKeyTransformer");

        Assert.Equal(MemcachedKeyTransformer.None, options.KeyTransformer);
        Assert.Equal(
            "enyimMemcached:KeyTransformer: 'TigerHashKeyTransformer' is not a type Type.GetType finds (it takes the exact full name, "
            + $"Enyim.Caching.Memcached.TigerHashKeyTransformer){Ignored}TigerHashKeyTransformer is not offered by this package; remove the setting",
            Assert.Single(options.BindingWarnings));
    }

    [Fact]
    public void AddMemcached_ShortDefaultName_KeepsKeysUnchangedWithoutWarning()
    {
        // Ignored by EnyimMemcachedCore too, but what it names is what it gets: nothing to warn of.
        MemcachedClientOptions options = Bind("DefaultKeyTransformer");

        Assert.Equal(MemcachedKeyTransformer.None, options.KeyTransformer);
        Assert.Empty(options.BindingWarnings);
    }

    [Theory]
    [InlineData("Enyim.Caching.Memcached.TigerHashKeyTransformer", "enyimMemcached:KeyTransformer: TigerHashKeyTransformer is not offered; its keys cannot be found by this package. Switch the EnyimMemcachedCore application to SHA1KeyTransformer first (a one-time cold cache), then migrate")]
    [InlineData("Enyim.Caching.Memcached.TigerHashKeyTransformer, EnyimMemcachedCore", "enyimMemcached:KeyTransformer: TigerHashKeyTransformer is not offered; its keys cannot be found by this package. Switch the EnyimMemcachedCore application to SHA1KeyTransformer first (a one-time cold cache), then migrate")]
    [InlineData("MyApp.LowerCaseKeys, MyApp", "enyimMemcached:KeyTransformer: the key transformer 'MyApp.LowerCaseKeys, MyApp' cannot be loaded; this package rewrites keys as EnyimMemcachedCore's DefaultKeyTransformer, SHA1KeyTransformer and Base64KeyTransformer do (KeyTransformer: None, Sha1, Base64)")]
    public void AddMemcached_TigerOrCustomTypeEnyimMemcachedCoreLoads_FailsAtStart(string typeName, string failure)
    {
        OptionsValidationException thrown = Assert.Throws<OptionsValidationException>(() => Bind(typeName));

        Assert.Equal(failure, Assert.Single(thrown.Failures));
    }

    private static MemcachedClientOptions Bind(string typeName)
    {
        IConfiguration configuration = new ConfigurationBuilder()
            .AddJsonStream(new MemoryStream(Encoding.UTF8.GetBytes($$"""{ "enyimMemcached": { {{Servers}}, "KeyTransformer": "{{typeName}}" } }""")))
            .Build();
        using ServiceProvider provider = new ServiceCollection().AddMemcached(configuration.GetSection("enyimMemcached")).BuildServiceProvider();
        return provider.GetRequiredService<IOptions<MemcachedClientOptions>>().Value;
    }
}
