using CacheSerializer.Memcached;
using CacheSerializer.Memcached.Internal.Configuration;
using Microsoft.Extensions.Configuration;

namespace CacheSerializer.Tests.Memcached.Internal.Configuration;

/// <summary>The value size limit has one name, MaxValueSize, and is mapped between client and transcoder in one place.</summary>
public class PackageDefaultsTests
{
    [Fact]
    public void Transcoder_NoneConfigured_IsThePackagesWithTheClientsLimit()
    {
        ProtobufTranscoder transcoder = Assert.IsType<ProtobufTranscoder>(PackageDefaults.Transcoder(null, 4096));

        Assert.Equal(4096, transcoder.MaxValueSize);
        Assert.Throws<TranscoderException>(() => transcoder.Serialize(new byte[4097]));
    }

    [Fact]
    public void Transcoder_ProtobufTranscoderWithAnotherLimit_RunsWithTheClientsLimit()
    {
        var own = new ProtobufTranscoder(new ProtobufTranscoderOptions { MaxValueSize = 2048 });

        ProtobufTranscoder used = Assert.IsType<ProtobufTranscoder>(PackageDefaults.Transcoder(own, 4096));

        Assert.Equal(4096, used.MaxValueSize);
        Assert.Equal(4096, used.Serialize(new byte[4096]).Data.Count);
        Assert.Throws<TranscoderException>(() => used.Serialize(new byte[4097]));
        Assert.Equal(2048, own.MaxValueSize); // the instance given is left as it is
    }

    [Fact]
    public void Transcoder_ProtobufTranscoderWithAnotherLimit_SharesItsContracts()
    {
        var own = new ProtobufTranscoder(new ProtobufTranscoderOptions { MaxValueSize = 2048, TypeAliases = { [typeof(LimitProbe)] = 7 } });

        ProtobufTranscoder used = Assert.IsType<ProtobufTranscoder>(PackageDefaults.Transcoder(own, 4096));
        CacheItem item = used.Serialize(new LimitProbe { Name = "n" });

        Assert.Equal("n", Assert.IsType<LimitProbe>(own.Deserialize(item)).Name);
        Assert.Equal(own.DescribeContract(typeof(LimitProbe)).Fingerprint, used.DescribeContract(typeof(LimitProbe)).Fingerprint);
    }

    [Fact]
    public void Transcoder_ProtobufTranscoderWithTheSameLimit_IsUsedAsItIs()
    {
        var own = new ProtobufTranscoder(new ProtobufTranscoderOptions { MaxValueSize = 2048 });

        Assert.Same(own, PackageDefaults.Transcoder(own, 2048));
    }

    [Fact]
    public void CreateTranscoder_SectionSettingAnotherLimit_RunsWithTheClientsLimit()
    {
        IConfigurationRoot section = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?> { ["MaxValueSize"] = "10", ["Compression"] = "None" }).Build();
        var options = new ProtobufTranscoderOptions();
        section.Bind(options);

        ProtobufTranscoder transcoder = PackageDefaults.CreateTranscoder(1000, options);

        Assert.Equal(1000, transcoder.MaxValueSize);
        Assert.Equal(1000, transcoder.Serialize(new string('a', 1000)).Data.Count);
    }

    [Fact]
    public async Task Constructor_ClientWithAProtobufTranscoderOfAnotherLimit_StoresUpToTheClientsLimit()
    {
        var options = new MemcachedClientOptions { Servers = { "127.0.0.1:1" }, MaxValueSize = 100, Transcoder = new ProtobufTranscoder() };
        using var client = new MemcachedClient(options);

        TranscoderException e = await Assert.ThrowsAsync<TranscoderException>(() => client.SetAsync("k", new byte[101], TimeSpan.FromMinutes(1)));

        Assert.Contains("above ProtobufTranscoderOptions.MaxValueSize (100 bytes)", e.Message, StringComparison.Ordinal);
    }

    [ProtoBuf.ProtoContract]
    public sealed class LimitProbe
    {
        [ProtoBuf.ProtoMember(1)]
        public string? Name { get; set; }
    }
}
