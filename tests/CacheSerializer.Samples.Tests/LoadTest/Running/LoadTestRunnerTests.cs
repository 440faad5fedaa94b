using CacheSerializer.LoadTest.Running;
using CacheSerializer.Workloads.Contenders;

namespace CacheSerializer.Samples.Tests.LoadTest.Running;

public sealed class LoadTestRunnerTests
{
    [Fact]
    public void SelectContenders_NoNames_ThisTranscoderTwiceThenTheThreeItReplaces()
    {
        IReadOnlyList<Contender> contenders = LoadTestRunner.SelectContenders([]);

        Assert.Equal(
            [ContenderCatalog.CacheSerializer, ContenderCatalog.CacheSerializerCompressed, ContenderCatalog.Bson, ContenderCatalog.BinaryFormatter, ContenderCatalog.DeflateBinaryFormatter],
            contenders.Select(c => c.Name));
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
