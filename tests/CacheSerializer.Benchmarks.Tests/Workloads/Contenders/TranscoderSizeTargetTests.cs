using System.Text;
using CacheSerializer.Workloads;
using CacheSerializer.Workloads.Contenders;
using CacheSerializer.Workloads.Models;
using CacheSerializer.Workloads.Protos;
using CacheSerializer.Workloads.Reports;
using Google.Protobuf;
using Timestamp = Google.Protobuf.WellKnownTypes.Timestamp;

namespace CacheSerializer.Benchmarks.Tests.Workloads.Contenders;

/// <summary>
/// This transcoder's payload sizes on every workload, exactly, and the issue 11 size targets it MEETS. A target it misses
/// has no test here (a test would have to pretend): docs/benchmarks-transcoders.md records each miss, by how much and why.
/// </summary>
/// <remarks>
/// Figures from the `sizes` command on 2026-11-22 (.NET 10.0, Google.Protobuf 3.25.1, Brotli from the runtime at
/// <see cref="System.IO.Compression.CompressionLevel.Fastest"/>). The plain and aliased figures follow from the wire
/// format alone and are also derived below from Google.Protobuf's; the Brotli figures depend on the runtime's Brotli.
/// </remarks>
public class TranscoderSizeTargetTests
{
    private const string Plain = ContenderCatalog.CacheSerializer;
    private const string Brotli = ContenderCatalog.CacheSerializerCompressed;
    private const string Aliased = ContenderCatalog.CacheSerializerAliased;

    [Theory]
    [InlineData("RpcMessage", 143, 143, 100)]
    [InlineData("EightUInt64s", 99, 99, 54)]
    [InlineData("Records1", 79, 79, 37)]
    [InlineData("Records32", 881, 881, 839)]
    [InlineData("Records1024", 25_258, 15_828, 25_216)]
    [InlineData("Folders", 5_572, 3_916, 5_526)]
    [InlineData("LargeObject", 507_482, 174_721, 507_435)]
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
    [InlineData("RpcMessage", typeof(RpcMessage))]
    [InlineData("EightUInt64s", typeof(EightUInt64s))]
    [InlineData("Records1", typeof(RecordSet))]
    [InlineData("Records32", typeof(RecordSet))]
    [InlineData("Records1024", typeof(RecordSet))]
    public void Serialize_FlatWorkloads_AreGoogleProtobufPlusTheTypeHeaderExactly(string workload, Type root)
    {
        // No Guid, DateTime, subtype or empty collection in these graphs: the body is byte for byte what generated code
        // writes, and the only overhead is the type header of docs/format.md (varint key, then the name's UTF-8 bytes).
        int google = Size(workload, ContenderCatalog.GoogleProtobuf);
        int nameBytes = Encoding.UTF8.GetByteCount(root.FullName!);
        int nameHeader = CodedOutputStream.ComputeUInt32Size((uint)nameBytes << 1) + nameBytes;

        Assert.Equal(google + nameHeader, Size(workload, Plain));
        Assert.Equal(google + 1, Size(workload, Aliased));
    }

    [Fact]
    public void Serialize_LargeObject_IsGoogleProtobufPlusHeaderMarkersAndBclLayouts()
    {
        // The body differs from generated code in three documented places only (docs/protobuf-format.md): the empty-collection
        // marker (2 bytes at fields 10 and 11), Guid as bcl.proto's two fixed64 (20 bytes, vs 18 for proto `bytes`), and
        // DateTime as bcl.proto's (value, scale, kind) vs Timestamp's (seconds, nanos). Each is derived here per value.
        var workload = (Workload<UserFolderTree, UserFolderTreePb>)WorkloadCatalog.Get("LargeObject");
        UserFolderTree tree = workload.TypedValue;
        UserFolderTreePb message = workload.TypedMessage;

        long body = message.CalculateSize() + DateTimeDelta(tree.Loaded);
        int markers = 0, guids = 0;
        for (int i = 0; i < tree.Entries.Count; i++)
        {
            FolderEntry entry = tree.Entries[i];
            int google = message.Entries[i].CalculateSize();
            int entryMarkers = (entry.Tags.Count == 0 ? 2 : 0) + (entry.Permissions.Count == 0 ? 2 : 0);
            int ours = google + GuidDelta(entry.Id) + DateTimeDelta(entry.Created) + DateTimeDelta(entry.Modified) + entryMarkers;
            body += ours - google + CodedOutputStream.ComputeLengthSize(ours) - CodedOutputStream.ComputeLengthSize(google);
            markers += entryMarkers;
            guids += GuidDelta(entry.Id);
        }

        int nameBytes = Encoding.UTF8.GetByteCount(typeof(UserFolderTree).FullName!);
        Assert.Equal(body + 1 + nameBytes, Size("LargeObject", Plain));
        Assert.Equal(body + 1, Size("LargeObject", Aliased));
        // The split of the 2,704 body bytes over Google.Protobuf, quoted in the docs: empty markers, Guids, and the
        // DateTimes with the length prefixes they change (a millisecond instant is smaller as bcl.proto's value in ms).
        Assert.Equal(1_608, markers);
        Assert.Equal(4_000, guids);
        Assert.Equal(-2_904, body - message.CalculateSize() - markers - guids);
    }

    [Theory]
    [InlineData("RpcMessage", Aliased)]
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
        // here: the default on the rpc message (0.93x) and on Records1 (0.72x), the plain and aliased large object (0.619x).
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

    // Bytes bcl.proto's Guid (two fixed64 halves, each skipped when zero) takes beyond proto `bytes` of 16.
    private static int GuidDelta(Guid id)
    {
        if (id == Guid.Empty)
        {
            return 0;
        }

        Span<byte> bytes = stackalloc byte[16];
        id.TryWriteBytes(bytes);
        int ours = (BitConverter.ToUInt64(bytes) != 0 ? 9 : 0) + (BitConverter.ToUInt64(bytes[8..]) != 0 ? 9 : 0);
        return ours + CodedOutputStream.ComputeLengthSize(ours) - (16 + CodedOutputStream.ComputeLengthSize(16));
    }

    // Bytes bcl.proto's DateTime (value in the largest exact unit, scale, kind) takes beyond a Timestamp, both as a field.
    private static int DateTimeDelta(DateTime value)
    {
        long ticks = value.Ticks - DateTime.UnixEpoch.Ticks;
        (long unit, int scale) = ticks % TimeSpan.TicksPerDay == 0 ? (TimeSpan.TicksPerDay, 0)
            : ticks % TimeSpan.TicksPerHour == 0 ? (TimeSpan.TicksPerHour, 1)
            : ticks % TimeSpan.TicksPerMinute == 0 ? (TimeSpan.TicksPerMinute, 2)
            : ticks % TimeSpan.TicksPerSecond == 0 ? (TimeSpan.TicksPerSecond, 3)
            : ticks % TimeSpan.TicksPerMillisecond == 0 ? (TimeSpan.TicksPerMillisecond, 4)
            : (1, 5);
        long scaled = ticks / unit;
        int ours = (scaled != 0 ? 1 + CodedOutputStream.ComputeSInt64Size(scaled) : 0) + (scale != 0 ? 2 : 0)
            + (value.Kind != DateTimeKind.Unspecified ? 2 : 0);
        int google = Timestamp.FromDateTime(value).CalculateSize();
        return ours + CodedOutputStream.ComputeLengthSize(ours) - google - CodedOutputStream.ComputeLengthSize(google);
    }

    private static int Size(string workload, string contender) =>
        SizeReport.Measure(WorkloadCatalog.Get(workload), ContenderCatalog.Get(contender))
        ?? throw new InvalidOperationException($"{contender} cannot store {workload}.");
}
