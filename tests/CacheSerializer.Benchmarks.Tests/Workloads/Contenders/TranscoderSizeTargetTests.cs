using System.Reflection;
using CacheSerializer.Workloads;
using CacheSerializer.Workloads.Contenders;
using CacheSerializer.Workloads.Reports;
using ProtoBuf.Meta;

namespace CacheSerializer.Benchmarks.Tests.Workloads.Contenders;

/// <summary>
/// This transcoder's payload sizes on every workload, exactly, and the issue 11 size targets it MEETS. A target it misses
/// has no test here (a test would have to pretend): docs/benchmarks/transcoders-2026-11-22.md, "The targets of issue 11,
/// checked", records each miss, by how much and why.
/// </summary>
/// <remarks>
/// Figures from the `sizes` command with protobuf-net 3.4.40 as the object engine (.NET 10.0, Brotli from the runtime at
/// <see cref="System.IO.Compression.CompressionLevel.Fastest"/>). The plain and aliased figures follow from protobuf-net's
/// bytes and the type header alone, checked below; the Brotli figures depend on the runtime's Brotli.
/// </remarks>
public class TranscoderSizeTargetTests
{
    private const string Plain = ContenderCatalog.CacheSerializerUncompressed;
    private const string Brotli = ContenderCatalog.CacheSerializerCompressed;
    private const string Aliased = ContenderCatalog.CacheSerializerAliased;

    [Theory]
    [InlineData("RpcMessage", 108, 108, 104)]
    [InlineData("EightUInt64s", 62, 62, 58)]
    [InlineData("Records1", 47, 47, 43)]
    [InlineData("Records32", 850, 850, 846)]
    [InlineData("Records1024", 25_228, 15_798, 25_224)]
    [InlineData("Folders", 5_631, 3_934, 5_627)]
    [InlineData("LargeObject", 513_842, 179_596, 513_838)]
    [InlineData("Int32", 4, 4, 4)]
    [InlineData("Int64", 8, 8, 8)]
    [InlineData("Double", 8, 8, 8)]
    [InlineData("DateTime", 8, 8, 8)]
    [InlineData("String40", 40, 40, 40)]
    [InlineData("Bytes1K", 1_024, 1_024, 1_024)]
    [InlineData("Bytes100K", 102_400, 102_400, 102_400)]
    public void Serialize_EveryWorkload_HasTheMeasuredSize(string workload, int plain, int brotli, int aliased)
    {
        Assert.Equal(plain, Size(workload, Plain));
        Assert.Equal(brotli, Size(workload, Brotli));
        Assert.Equal(aliased, Size(workload, Aliased));
    }

    [Theory]
    [InlineData("RpcMessage", 108, 108)]
    [InlineData("Records32", 850, 850)]
    [InlineData("Records1024", 18_763, 15_892)]
    [InlineData("Folders", 4_285, 3_809)]
    [InlineData("LargeObject", 232_293, 183_096)]
    public void Serialize_Lz4AndZstandardContenders_HaveTheMeasuredSize(string workload, int lz4, int zstandard)
    {
        // Pinned encoders (K4os 1.3.8, ZstdSharp.Port 0.8.8) at the default level, from 1 KiB: below it nothing is compressed.
        Assert.Equal(lz4, Size(workload, ContenderCatalog.CacheSerializerLz4));
        Assert.Equal(zstandard, Size(workload, ContenderCatalog.CacheSerializerZstandard));

        // The package's defaults are Zstandard at Fastest from 1 KiB (issue 24): the same bytes.
        Assert.Equal(zstandard, Size(workload, ContenderCatalog.CacheSerializer));
    }

    [Theory]
    [MemberData(nameof(ObjectWorkloads))]
    public void Serialize_ObjectWorkloads_AreProtobufNetsBytesPlusTheTypeHeaderExactly(string workload)
    {
        // The body is byte for byte what protobuf-net writes with a model configured here as an application would
        // (NullWrappedModel: never the transcoder's CreateModel, so a wrong setting there shows as a difference); the
        // only overhead is the type header of docs/format.md: key 0, the 4-byte hash of the type's name and the 4-byte
        // contract fingerprint, or a one-byte alias and the fingerprint.
        object value = WorkloadCatalog.Get(workload).Value;
        byte[] protobufNet = ProtobufNetBytes(NullWrappedModel(), value);
        CacheItem item = ContenderCatalog.Get(Plain).Transcoder.Serialize(value);

        Assert.Equal(Convert.ToHexString(protobufNet), Convert.ToHexString(item.Data.AsSpan(9)));
        Assert.Equal(protobufNet.Length + 9, Size(workload, Plain));
        Assert.Equal(protobufNet.Length + 5, Size(workload, Aliased));
    }

    [Theory]
    [MemberData(nameof(ObjectWorkloads))]
    public void Serialize_ObjectWorkloadsWithoutNullWrapping_BodyIsExactlyAPlainProtobufNetModelsBytes(string workload)
    {
        // The same check through protobuf-net's public API alone: with null-wrapping off, the transcoder's body is what a
        // RuntimeTypeModel with the two documented settings writes (parseable types as text, DateTime kinds kept).
        object value = WorkloadCatalog.Get(workload).Value;
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { Compression = TranscoderCompression.None, NullWrappedCollections = false });

        CacheItem item = transcoder.Serialize(value);

        Assert.Equal(Convert.ToHexString(ProtobufNetBytes(UserModel(), value)), Convert.ToHexString(item.Data.AsSpan(9)));
    }

    [Theory]
    [InlineData("RpcMessage")]
    [InlineData("EightUInt64s")]
    public void Serialize_FlatWorkloads_AreGoogleProtobufPlusTheTypeHeaderExactly(string workload)
    {
        // No collection, Guid, DateTime or subtype in these graphs: protobuf-net writes what generated code writes.
        int google = Size(workload, ContenderCatalog.GoogleProtobuf);

        Assert.Equal(google + 9, Size(workload, Plain));
        Assert.Equal(google + 5, Size(workload, Aliased));
    }

    [Theory]
    [InlineData("Records1", 2)]
    [InlineData("Records32", 3)]
    [InlineData("Records1024", 4)]
    public void Serialize_Records_AreGoogleProtobufPlusHeaderAndTheNullWrapperOfTheList(string workload, int wrapper)
    {
        // The entries list is null-wrapped (docs/protobuf-format.md): one more tag and length around the entries.
        int google = Size(workload, ContenderCatalog.GoogleProtobuf);

        Assert.Equal(google + 9 + wrapper, Size(workload, Plain));
    }

    [Theory]
    [InlineData("RpcMessage", Plain)]
    [InlineData("RpcMessage", Brotli)]
    [InlineData("RpcMessage", Aliased)]
    [InlineData("Records1", Plain)]
    [InlineData("Records1", Brotli)]
    [InlineData("Records1", Aliased)]
    [InlineData("Records32", Plain)]
    [InlineData("Records32", Aliased)]
    [InlineData("Records1024", Plain)]
    [InlineData("Records1024", Brotli)]
    [InlineData("Records1024", Aliased)]
    [InlineData("Folders", Plain)]
    [InlineData("Folders", Brotli)]
    [InlineData("Folders", Aliased)]
    [InlineData("LargeObject", Brotli)]
    public void Serialize_TargetWorkloadsMet_AreAtMostTheTargetRatioOfBson(string workload, string contender)
    {
        // Targets: at most 0.8x BSON on the rpc message, 0.6x on records, folders and the large object. Missed, and so not
        // here: the plain and aliased large object (0.627x: protobuf-net's bcl.proto Guids and DateTimes, and the null wrappers).
        double target = workload == "RpcMessage" ? 0.8 : 0.6;

        Assert.True(Size(workload, contender) <= target * Size(workload, ContenderCatalog.Bson), $"{contender} on {workload}");
    }

    public static TheoryData<string> ObjectWorkloads() => [.. WorkloadCatalog.Objects.Select(w => w.Name)];

    public static TheoryData<string> EveryWorkload() => [.. WorkloadCatalog.All.Select(w => w.Name)];

    [Theory]
    [MemberData(nameof(ObjectWorkloads))]
    public void Serialize_BrotliObjects_AreSmallerThanBinaryFormatterDeflate(string workload)
    {
        Assert.True(Size(workload, Brotli) < Size(workload, ContenderCatalog.DeflateBinaryFormatter));
    }

    [Theory]
    [InlineData("Int32")]
    [InlineData("Int64")]
    [InlineData("Double")]
    [InlineData("DateTime")]
    [InlineData("String40")]
    [InlineData("Bytes1K")]
    [InlineData("Bytes100K")]
    public void Serialize_BrotliPrimitives_TieWithBinaryFormatterDeflate(string workload)
    {
        // Not "smaller" (the target): both store primitives as Enyim's native raw bytes, and random bytes do not compress.
        Assert.Equal(Size(workload, ContenderCatalog.DeflateBinaryFormatter), Size(workload, Brotli));
        Assert.Equal(Size(workload, ContenderCatalog.PlainCopy), Size(workload, Brotli));
    }

    [Theory]
    [MemberData(nameof(EveryWorkload))]
    public void Serialize_EveryConfiguration_IsSmallerThanSystemTextJson(string workload)
    {
        int json = Size(workload, ContenderCatalog.SystemTextJson);

        Assert.True(Size(workload, Plain) < json, Plain);
        Assert.True(Size(workload, Brotli) < json, Brotli);
        Assert.True(Size(workload, Aliased) < json, Aliased);
    }

    // A fresh model, configured as an application configures protobuf-net for these classes (as ProtobufNetCrossCheckTests
    // does): the transcoder's documented settings, with protobuf-net's public API only.
    private static RuntimeTypeModel UserModel()
    {
        var model = RuntimeTypeModel.Create();
        model.AllowParseableTypes = true;
        model.IncludeDateTimeKind = true;
        return model;
    }

    // UserModel, with every collection member null-wrapped as [NullWrappedCollection] on it would make it: the workload
    // classes are shared plain DataContracts, and protobuf-net 3.4.40 keeps the member flag that attribute sets
    // (ValueMember.NullWrappedCollection) without a public setter, so it is set here by name as each contract is added.
    private static RuntimeTypeModel NullWrappedModel()
    {
        PropertyInfo nullWrapped = typeof(ValueMember).GetProperty("NullWrappedCollection", BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic)!;
        RuntimeTypeModel model = UserModel();
        model.AfterApplyDefaultBehaviour += (_, e) =>
        {
            foreach (ValueMember member in e.MetaType.GetFields().Where(static m => m.ItemType is not null))
            {
                nullWrapped.SetValue(member, true);
            }
        };
        return model;
    }

    private static byte[] ProtobufNetBytes(TypeModel model, object value)
    {
        using var stream = new MemoryStream();
        model.Serialize(stream, value);
        return stream.ToArray();
    }

    private static int Size(string workload, string contender) =>
        SizeReport.Measure(WorkloadCatalog.Get(workload), ContenderCatalog.Get(contender))
        ?? throw new InvalidOperationException($"{contender} cannot store {workload}.");
}
