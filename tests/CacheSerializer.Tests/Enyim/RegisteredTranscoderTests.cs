using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace CacheSerializer.Tests.Enyim
{
    /// <summary>
    /// An EnyimMemcachedCore <c>ITranscoder</c> registered in DI, which its unnamed client takes when the section names no
    /// transcoder (cnblogs/EnyimMemcachedCore at e383c4c742190da94007579ccb7377443021a7eb,
    /// src/Enyim.Caching/Configuration/MemcachedClientConfiguration.cs, its <c>transcoder</c> parameter). EnyimMemcachedCore is
    /// not referenced: the types below carry its full names, as the application's still-referenced assembly would, since
    /// the registration is recognised by name.
    /// </summary>
    public class RegisteredTranscoderTests
    {
        private const string Section = """{ "Servers": [ { "Address": "127.0.0.1", "Port": 11211 } ] }""";

        [Fact]
        public void AddEnyimMemcached_RegisteredMessagePackTranscoder_WritesItsObjects()
        {
            CacheSerializer.Memcached.MemcachedClientOptions options = EnyimSections.Options(services => services
                .AddSingleton<global::Enyim.Caching.Memcached.ITranscoder, global::Enyim.Caching.Memcached.Transcoders.MessagePackTranscoder>()
                .AddEnyimMemcached(EnyimSections.Configuration(Section)));

            Assert.Equal("MessagePack", options.EnyimTranscoder.ToString());
            Assert.Equal(0x0101u, options.Transcoder!.Serialize(12.5m).Flags);
        }

        [Fact]
        public void AddEnyimMemcached_RegisteredTranscoderButNamedInSection_TheSectionWins()
        {
            CacheSerializer.Memcached.MemcachedClientOptions options = EnyimSections.Options(services => services
                .AddEnyimMemcached(EnyimSections.Configuration("""{ "Servers": [ { "Address": "127.0.0.1", "Port": 11211 } ], "Transcoder": "DefaultTranscoder" }"""))
                .AddSingleton<global::Enyim.Caching.Memcached.ITranscoder, ApplicationTranscoder>());

            Assert.Equal("Default", options.EnyimTranscoder.ToString());
        }

        [Fact]
        public void AddEnyimMemcached_RegisteredApplicationTranscoder_IsRefusedNamingIt()
        {
            OptionsValidationException thrown = Assert.Throws<OptionsValidationException>(() => EnyimSections.Options(services => services
                .AddEnyimMemcached(EnyimSections.Configuration(Section))
                .AddSingleton<global::Enyim.Caching.Memcached.ITranscoder, ApplicationTranscoder>()));

            Assert.StartsWith(
                $"services registers {typeof(ApplicationTranscoder).FullName} as EnyimMemcachedCore's ITranscoder, which its client used for every item",
                Assert.Single(thrown.Failures),
                StringComparison.Ordinal);
        }

        /// <summary>An application's own transcoder.</summary>
        public sealed class ApplicationTranscoder : global::Enyim.Caching.Memcached.ITranscoder
        {
        }
    }
}

namespace Enyim.Caching.Memcached
{
    /// <summary>Carries the full name of EnyimMemcachedCore's transcoder interface (src/Enyim.Caching/Memcached/Transcoders/ITranscoder.cs).</summary>
    public interface ITranscoder
    {
    }
}

namespace Enyim.Caching.Memcached.Transcoders
{
    /// <summary>Carries the full name of EnyimMemcachedCore's MessagePackTranscoder.</summary>
    public sealed class MessagePackTranscoder : ITranscoder
    {
    }
}
