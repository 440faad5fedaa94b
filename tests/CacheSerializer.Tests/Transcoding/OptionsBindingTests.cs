using System.IO.Compression;
using Microsoft.Extensions.Configuration;

namespace CacheSerializer.Tests.Transcoding;

public class OptionsBindingTests
{
    [Fact]
    public void Bind_ConfigurationSection_SetsEveryScalarOption()
    {
        IConfigurationRoot configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?>
            {
                ["Transcoder:MaxValueSize"] = "2048",
                ["Transcoder:Compression"] = "ZLib",
                ["Transcoder:CompressionThreshold"] = "256",
                ["Transcoder:CompressionLevel"] = "Optimal",
                ["Transcoder:MaxDecompressionRatio"] = "32",
                ["Transcoder:CompressStringsAndBytes"] = "true",
            })
            .Build();
        var options = new ProtobufTranscoderOptions();

        configuration.GetSection("Transcoder").Bind(options);

        Assert.Equal(2048, options.MaxValueSize);
        Assert.Equal(TranscoderCompression.ZLib, options.Compression);
        Assert.Equal(256, options.CompressionThreshold);
        Assert.Equal(CompressionLevel.Optimal, options.CompressionLevel);
        Assert.Equal(32, options.MaxDecompressionRatio);
        Assert.True(options.CompressStringsAndBytes);
        Assert.Equal(0x0192u, new ProtobufTranscoder(options).Serialize(new string('a', 300)).Flags);
    }
}
