using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal;
using Microsoft.Extensions.Configuration;

namespace CacheSerializer.Tests.Memcached.Internal;

/// <summary>The value size limit has one name, MaxValueSize, and is mapped between client and transcoder in one place.</summary>
public class PackageDefaultsTests
{
    [Fact]
    public void Transcoder_NoneConfigured_IsThePackagesWithTheClientsLimit()
    {
        var transcoder = Assert.IsType<ProtobufTranscoder>(PackageDefaults.Transcoder(null, 4096));

        Assert.Equal(4096, transcoder.MaxValueSize);
        Assert.Throws<TranscoderException>(() => transcoder.Serialize(new byte[4097]));
    }

    [Fact]
    public void Transcoder_ProtobufTranscoderWithAnotherLimit_ThrowsNamingBothSettings()
    {
        var e = Assert.Throws<MemcachedConfigurationException>(() => PackageDefaults.Transcoder(new ProtobufTranscoder(), 2 * 1024 * 1024));

        Assert.Equal(
            "MemcachedClientOptions.Transcoder is a ProtobufTranscoder with ProtobufTranscoderOptions.MaxValueSize 1048576, but "
            + "MemcachedClientOptions.MaxValueSize is 2097152; set both to the same value (memcached's -I item size limit).",
            e.Message);
    }

    [Fact]
    public void Transcoder_ProtobufTranscoderWithTheSameLimit_IsUsedAsItIs()
    {
        var own = new ProtobufTranscoder(new ProtobufTranscoderOptions { MaxValueSize = 2048 });

        Assert.Same(own, PackageDefaults.Transcoder(own, 2048));
    }

    [Fact]
    public void CreateTranscoder_SectionSettingAnotherLimit_ThrowsNamingTheClientsSetting()
    {
        var section = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?> { ["MaxValueSize"] = "10" }).Build();

        var e = Assert.Throws<MemcachedConfigurationException>(() => PackageDefaults.CreateTranscoder(1000, section.Bind));

        Assert.Equal(
            "MemcachedClientOptions.MaxValueSize is 1000, but the transcoder's section sets MaxValueSize 10; set the limit once, as the client's MaxValueSize.",
            e.Message);
    }

    [Fact]
    public void Constructor_ClientWithAProtobufTranscoderOfAnotherLimit_IsRefusedAtStartUp()
    {
        var options = new MemcachedClientOptions { Servers = { "127.0.0.1:11211" }, MaxValueSize = 2 * 1024 * 1024, Transcoder = new ProtobufTranscoder() };

        Assert.Throws<MemcachedConfigurationException>(() => new MemcachedClient(options));
    }
}
