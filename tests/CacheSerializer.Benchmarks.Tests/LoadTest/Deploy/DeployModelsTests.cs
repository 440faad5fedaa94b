using CacheSerializer.LoadTest.Deploy;
using CacheSerializer.LoadTest.Deploy.Models;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Deploy;

/// <summary>The two builds of each change kind, through their transcoders alone: what build 2 makes of build 1's item.</summary>
public sealed class DeployModelsTests
{
    private static readonly ProtobufTranscoder Build1None = ChangeNone.Build1.CreateTranscoder();
    private static readonly ProtobufTranscoder Build2None = ChangeNone.Build2.CreateTranscoder();

    [Fact]
    public void Deserialize_NoChange_Build2ReadsBuild1sValue()
    {
        CacheItem item = Build1None.Serialize(new ChangeNone.V1 { Id = 7, Name = "product 7" });

        ChangeNone.V2? value = Build2None.Deserialize<ChangeNone.V2>(item);

        Assert.Equal((7, "product 7"), (value!.Id, value.Name));
        Assert.Equal(ChangeNone.Build1.Expected(7, 1), ChangeNone.Build2.Expected(7, 1));
    }

    [Fact]
    public void Deserialize_MemberAdded_OtherContract()
    {
        CacheItem item = MemberAdded.Build1.CreateTranscoder().Serialize(new MemberAdded.V1 { Id = 7, Name = "product 7" });

        TranscoderException error = Assert.Throws<ContractMismatchException>(() => MemberAdded.Build2.CreateTranscoder().Deserialize<MemberAdded.V2>(item));
        Assert.Equal(TranscoderErrorKind.OtherContract, error.Kind);
    }

    [Fact]
    public void Deserialize_MemberRetyped_OtherContractBothWays()
    {
        CacheItem cents = MemberRetyped.Build1.CreateTranscoder().Serialize(new MemberRetyped.V1 { Id = 7, Price = 799 });
        CacheItem amount = MemberRetyped.Build2.CreateTranscoder().Serialize(new MemberRetyped.V2 { Id = 7, Price = 7.99m });

        Assert.Throws<ContractMismatchException>(() => MemberRetyped.Build2.CreateTranscoder().Deserialize<MemberRetyped.V2>(cents));
        Assert.Throws<ContractMismatchException>(() => MemberRetyped.Build1.CreateTranscoder().Deserialize<MemberRetyped.V1>(amount));
    }

    [Fact]
    public void Deserialize_SubtypeRemoved_ProductReadsBundleIsUnknown()
    {
        ProtobufTranscoder build1 = SubtypeRemoved.Build1.CreateTranscoder();
        ProtobufTranscoder build2 = SubtypeRemoved.Build2.CreateTranscoder();
        CacheItem product = build1.Serialize(new SubtypeRemoved.Base1 { Id = 5, Name = "product 5" });
        CacheItem bundle = build1.Serialize(new SubtypeRemoved.Sub1 { Id = 4, Name = "product 4", Parts = 1 });

        SubtypeRemoved.Base2? read = build2.Deserialize<SubtypeRemoved.Base2>(product);
        TranscoderException error = Assert.ThrowsAny<TranscoderException>(() => build2.Deserialize<SubtypeRemoved.Base2>(bundle));

        Assert.Equal((5, "product 5"), (read!.Id, read.Name));
        Assert.Equal(TranscoderErrorKind.UnknownType, error.Kind);
    }

    [Theory]
    [InlineData("none", true)]
    [InlineData("member-added", false)]
    [InlineData("member-retyped", false)]
    [InlineData("subtype-removed", false)]
    public void Expected_BundleKey_SameTextInBothBuildsOnlyWithoutChange(string kind, bool same)
    {
        (DeployBuild build1, DeployBuild build2) = DeployModels.For(DeploySettings.ParseKind(kind));

        Assert.Equal(same, build1.Expected(4, 3) == build2.Expected(4, 3));
    }
}
