using CacheSerializer.LoadTest.Running;
using CacheSerializer.Workloads.Contenders;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Running;

public sealed class LoadTestRunnerTests
{
    [Fact]
    public void SelectContenders_NoNames_ThisTranscoderThreeTimesThenTheThreeItReplaces()
    {
        IReadOnlyList<Contender> contenders = LoadTestRunner.SelectContenders([]);

        Assert.Equal(
            [ContenderCatalog.CacheSerializer, ContenderCatalog.CacheSerializerUncompressed, ContenderCatalog.CacheSerializerLz4, ContenderCatalog.Bson, ContenderCatalog.BinaryFormatter, ContenderCatalog.DeflateBinaryFormatter],
            contenders.Select(c => c.Name));
    }

    [Fact]
    public void SelectContenders_SeedProfile_ThisTranscodersCompressionsThenBinaryFormatterDeflate()
    {
        IReadOnlyList<Contender> contenders = LoadTestRunner.SelectContenders([], CacheSerializer.LoadTest.Mix.LoadProfile.Seed, 8 * 1024 * 1024);

        Assert.Equal(
            [ContenderCatalog.CacheSerializer, ContenderCatalog.CacheSerializerUncompressed, ContenderCatalog.CacheSerializerLz4, ContenderCatalog.CacheSerializerCompressed, ContenderCatalog.DeflateBinaryFormatter],
            contenders.Select(c => c.Name));
    }

    [Fact]
    public void SelectContenders_LargerItemLimit_ThisPackagesTranscodersStoreItemsUpToIt()
    {
        Contender contender = LoadTestRunner.SelectContenders(["CacheSerializer"], maxItemBytes: 8 * 1024 * 1024)[0];
        byte[] threeMegabytes = new byte[3 * 1024 * 1024];

        Assert.Equal(threeMegabytes.Length, contender.Transcoder.Serialize(threeMegabytes).Data.Count);
        Assert.Throws<TranscoderException>(() => ContenderCatalog.Get(ContenderCatalog.CacheSerializer).Transcoder.Serialize(threeMegabytes));
    }

    [Fact]
    public void SelectContenders_NamesInAnyCase_ThoseInTheOrderGiven()
    {
        IReadOnlyList<Contender> contenders = LoadTestRunner.SelectContenders(["system.text.json", "BSON"]);

        Assert.Equal([ContenderCatalog.SystemTextJson, ContenderCatalog.Bson], contenders.Select(c => c.Name));
    }

    [Fact]
    public void SelectContenders_UnknownName_ThrowsListingTheKnownOnes()
    {
        ArgumentException error = Assert.Throws<ArgumentException>(() => LoadTestRunner.SelectContenders(["Nope"]));

        Assert.StartsWith("--contenders: no contender is named 'Nope'; known: BSON, ", error.Message, StringComparison.Ordinal);
    }
}
