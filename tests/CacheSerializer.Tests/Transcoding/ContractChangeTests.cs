extern alias buildA;
extern alias buildB;

using A = buildA::CacheSerializer.Deploy;
using B = buildB::CacheSerializer.Deploy;

namespace CacheSerializer.Tests.Transcoding;

/// <summary>
/// Two separately built assemblies of one application's models (CacheSerializer.Tests.DeployBuildA and DeployBuildB, the
/// same type names) and a transcoder for each, as the old and the new build of a rolling deploy: every item the other
/// build wrote reads back as the right value or is refused before its body is parsed, never as a wrong value.
/// </summary>
public class ContractChangeTests
{
    private readonly ProtobufTranscoder _buildA = new();
    private readonly ProtobufTranscoder _buildB = new();

    [Fact]
    public void Deserialize_IdenticalContractFromTheOtherBuild_ReadsTheValue()
    {
        CacheItem item = _buildA.Serialize(new A.Identical { Id = 7, Name = "seven", Tags = [] });

        B.Identical back = _buildB.Deserialize<B.Identical>(item)!;

        Assert.Equal((7, "seven"), (back.Id, back.Name));
        Assert.Equal([], back.Tags!);
    }

    [Fact]
    public void Deserialize_MemberRenamedInCSharpOnly_ReadsTheValue()
    {
        CacheItem item = _buildA.Serialize(new A.MemberRenamed { Id = 3, Title = "kept" });

        B.MemberRenamed back = _buildB.Deserialize<B.MemberRenamed>(item)!;

        Assert.Equal((3, "kept"), (back.Id, back.Heading));
    }

    [Fact]
    public void Deserialize_DateTimeOffsetMemberFromTheOtherBuild_KeepsEveryTickAndTheOffset()
    {
        var at = new DateTimeOffset(638_000_000_000_000_123, TimeSpan.FromMinutes(330));

        B.WithDateTimeOffset back = _buildB.Deserialize<B.WithDateTimeOffset>(_buildA.Serialize(new A.WithDateTimeOffset { At = at }))!;

        Assert.Equal((at.Ticks, at.Offset), (back.At.Ticks, back.At.Offset));
    }

    [Fact]
    public void Deserialize_BaseItemAfterASubtypeWasAdded_ReadsTheValue()
    {
        // The stored type's fingerprint covers its own chain, not its subtypes: adding one leaves base items readable.
        B.SubtypeAddedBase back = _buildB.Deserialize<B.SubtypeAddedBase>(_buildA.Serialize(new A.SubtypeAddedBase { Id = 11 }))!;

        Assert.Equal(typeof(B.SubtypeAddedBase), back.GetType());
        Assert.Equal(11, back.Id);
    }

    public static TheoryData<string> ChangedContracts =>
    [
        "member added", "member removed", "member retyped", "decimal to double", "nested member retyped", "string to contract",
        "list of string to list of int", "default value", "data format", "parseable to string",
    ];

    [Theory]
    [MemberData(nameof(ChangedContracts))]
    public void Deserialize_ItemOfAChangedContract_IsRefusedAsAnotherContract(string change)
    {
        CacheItem item = _buildA.Serialize(WrittenByA(change));

        ContractMismatchException e = Assert.Throws<ContractMismatchException>(() => ReadByB(change, item));

        Assert.Equal(TranscoderErrorKind.OtherContract, e.Kind);
        Assert.Equal(_buildB.DescribeContract(e.StoredType).Fingerprint, e.Fingerprint);
        Assert.Equal(_buildA.DescribeContract(WrittenByA(change).GetType()).Fingerprint, e.StoredFingerprint);
        Assert.NotEqual(e.StoredFingerprint, e.Fingerprint);
        Assert.Equal(WrittenByA(change).GetType().FullName, e.StoredType.FullName);
    }

    [Fact]
    public void Deserialize_TypeRenamed_IsRefusedAsAnUnknownType()
    {
        CacheItem item = _buildA.Serialize(new A.TypeRenamedOld { Id = 1 });

        TranscoderException e = Assert.Throws<TranscoderException>(() => _buildB.Deserialize<B.TypeRenamedNew>(item));

        Assert.Equal(TranscoderErrorKind.UnknownType, e.Kind);
    }

    [Fact]
    public void Deserialize_ItemOfASubtypeRemovedFromProtoInclude_IsRefusedAsAnUnknownType()
    {
        CacheItem item = _buildA.Serialize(new A.SubtypeRemovedSub { Id = 1, Extra = "gone" });

        TranscoderException e = Assert.Throws<TranscoderException>(() => _buildB.Deserialize<B.SubtypeRemovedBase>(item));

        Assert.Equal(TranscoderErrorKind.UnknownType, e.Kind);
    }

    [Fact]
    public void Deserialize_NullWrappingTurnedOff_IsRefusedAsAnotherContract()
    {
        var unwrapped = new ProtobufTranscoder(new ProtobufTranscoderOptions { NullWrappedCollections = false });
        CacheItem item = _buildA.Serialize(new A.Identical { Id = 1, Tags = ["a"] });

        Assert.Throws<ContractMismatchException>(() => unwrapped.Deserialize<B.Identical>(item));
    }

    [Fact]
    public void DescribeContract_ChangedMember_SnapshotComparisonNamesTheMemberAndBothTypes()
    {
        string before = ContractSnapshot.Write(_buildA.DescribeContracts([typeof(A.MemberRetyped), typeof(A.Identical), typeof(A.MemberAdded)]));

        IReadOnlyList<ContractChange> changes = ContractSnapshot.Compare(before, _buildB.DescribeContracts([typeof(B.MemberRetyped), typeof(B.Identical), typeof(B.MemberAdded)]));

        Assert.Equal<string>(
            [
                "CacheSerializer.Deploy.MemberAdded: entries are misses across the deploy (#0 member 3 added: System.Decimal compatibility=200 default=0)",
                "CacheSerializer.Deploy.MemberRetyped: entries are misses across the deploy (#0 member 2: System.String compatibility=200 -> System.Int32 compatibility=200 default=0)",
            ],
            changes.Select(change => change.ToString()).ToArray());
    }

    [Fact]
    public void DescribeContract_SameContractInTwoBuilds_HasTheSameDescriptionAndFingerprint()
    {
        CacheContract a = _buildA.DescribeContract(typeof(A.MemberRenamed));
        CacheContract b = _buildB.DescribeContract(typeof(B.MemberRenamed));

        Assert.Equal(a.Description, b.Description);
        Assert.Equal(a.Fingerprint, b.Fingerprint);
    }

    [Fact]
    public void DescribeContract_Pinned_IsTheSameTextAndFingerprintInEveryProcess()
    {
        CacheContract contract = _buildB.DescribeContract(typeof(B.MemberAdded));

        // Pinned: a process, machine or run that described it otherwise would read every entry as another contract's.
        Assert.Equal(
            "protobuf-net contract 1\n"
            + "model parseable=transcoder datetime-kind=on implicit-zero-defaults=on\n"
            + "root #0\n"
            + "#0 {\n"
            + "  1: System.Int32 compatibility=200 default=0\n"
            + "  2: System.String compatibility=200\n"
            + "  3: System.Decimal compatibility=200 default=0\n"
            + "}\n",
            contract.Description);
        Assert.Equal(0x7E8FD9E3u, contract.Fingerprint);
    }

    private static object WrittenByA(string change) => change switch
    {
        "member added" => new A.MemberAdded { Id = 1, Name = "n" },
        "member removed" => new A.MemberRemoved { Id = 1, Name = "n" },
        "member retyped" => new A.MemberRetyped { Id = 1, Code = "12" },
        "decimal to double" => new A.DecimalToDouble { Price = 9.99m },
        "nested member retyped" => new A.NestedRetyped { Part = new A.NestedRetypedPart { Count = 4 } },
        "string to contract" => new A.StringToContract { Address = "1 Main St" },
        "list of string to list of int" => new A.ListRetyped { Values = ["a", "b"] },
        "default value" => new A.DefaultChanged { Level = 5 },
        "data format" => new A.FormatChanged { Delta = -3 },
        "parseable to string" => new A.ParseableRetyped { Version = new Version(1, 2, 3) },
        _ => throw new ArgumentOutOfRangeException(nameof(change), change, null),
    };

    private object? ReadByB(string change, CacheItem item) => change switch
    {
        "member added" => _buildB.Deserialize<B.MemberAdded>(item),
        "member removed" => _buildB.Deserialize<B.MemberRemoved>(item),
        "member retyped" => _buildB.Deserialize<B.MemberRetyped>(item),
        "decimal to double" => _buildB.Deserialize<B.DecimalToDouble>(item),
        "nested member retyped" => _buildB.Deserialize<B.NestedRetyped>(item),
        "string to contract" => _buildB.Deserialize<B.StringToContract>(item),
        "list of string to list of int" => _buildB.Deserialize<B.ListRetyped>(item),
        "default value" => _buildB.Deserialize<B.DefaultChanged>(item),
        "data format" => _buildB.Deserialize<B.FormatChanged>(item),
        "parseable to string" => _buildB.Deserialize<B.ParseableRetyped>(item),
        _ => throw new ArgumentOutOfRangeException(nameof(change), change, null),
    };
}
