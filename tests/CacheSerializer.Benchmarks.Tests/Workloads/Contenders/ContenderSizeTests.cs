using CacheSerializer.Workloads;
using CacheSerializer.Workloads.Contenders;
using CacheSerializer.Workloads.Reports;

namespace CacheSerializer.Benchmarks.Tests.Workloads.Contenders;

/// <summary>
/// The payload sizes the issue 11 targets are measured against, exactly. Sizes are deterministic: the workloads come from
/// fixed seeds (pinned by WorkloadFactoryTests) and each figure depends only on the serializer's version.
/// </summary>
/// <remarks>
/// Figures from `dotnet run -c Release --project benchmarks/CacheSerializer.Benchmarks -- sizes` on 2026-11-22 with
/// .NET 10.0 (System.Text.Json, DataContractSerializer, DeflateStream over the runtime's zlib-ng), Newtonsoft.Json.Bson 1.0.2,
/// System.Runtime.Serialization.Formatters 10.0.15 and Google.Protobuf 3.25.1. BinaryFormatter payloads embed the
/// assembly's full name (version 1.0.0.0), and Deflate's output can change with the runtime's zlib; the three
/// rpc message figures are also worked out by hand below, so they check the contenders, not just themselves.
/// </remarks>
public class ContenderSizeTests
{
    [Fact]
    public void Serialize_GoogleProtobufRpcMessage_Is99Bytes()
    {
        // request_id 1,638,312,888: tag 1 + varint 5; status 225: tag 1 + varint 2;
        // three strings of 20, 24 and 40 UTF-8 bytes, each with tag 1 + length 1: 6 + 3 + 90 = 99.
        Assert.Equal(99, Size("RpcMessage", ContenderCatalog.GoogleProtobuf));
    }

    [Fact]
    public void Serialize_BsonRpcMessage_Is154Bytes()
    {
        // Document length 4 + terminator 1; int32 elements: type 1 + "RequestId\0" 10 + 4, type 1 + "Status\0" 7 + 4;
        // string elements: type 1 + name + length 4 + bytes + NUL 1, for "Service\0" (8) 20, "Method\0" (7) 24, "Body\0" (5) 40.
        // 5 + 15 + 12 + 34 + 37 + 51 = 154.
        Assert.Equal(154, Size("RpcMessage", ContenderCatalog.Bson));
    }

    [Fact]
    public void Serialize_SystemTextJsonRpcMessage_Is156Bytes()
    {
        // {"RequestId":1638312888,"Status":225,"Service":"<20>","Method":"<24>","Body":"<40>"}:
        // braces 2 + commas 4 + 22 + 12 + 32 + 35 + 49 = 156.
        Assert.Equal(156, Size("RpcMessage", ContenderCatalog.SystemTextJson));
    }

    [Fact]
    public void Serialize_MessagePackRpcMessage_Is96Bytes()
    {
        // fixarray of 5: 1; request_id 1,638,312,888 as uint32: 0xCE + 4 = 5; status 225 as uint8: 0xCC + 1 = 2;
        // fixstr 20 and 24: 1 + 20, 1 + 24; str8 40: 2 + 40. 1 + 5 + 2 + 21 + 25 + 42 = 96.
        Assert.Equal(96, Size("RpcMessage", ContenderCatalog.MessagePack));
    }

    [Fact]
    public void Serialize_MemoryPackRpcMessage_Is117Bytes()
    {
        // member count 1; two int32 4 + 4; each string: ~UTF-8 length (int32) + UTF-16 length (int32) + UTF-8 bytes,
        // 8 + 20, 8 + 24, 8 + 40. 1 + 8 + 28 + 32 + 48 = 117.
        Assert.Equal(117, Size("RpcMessage", ContenderCatalog.MemoryPack));
    }

    [Theory]
    [InlineData("RpcMessage", ContenderCatalog.MessagePackLz4, 107)]
    [InlineData("Records32", ContenderCatalog.MessagePack, 781)]
    [InlineData("Records32", ContenderCatalog.MessagePackLz4, 755)]
    [InlineData("Records32", ContenderCatalog.MemoryPack, 977)]
    [InlineData("Records32", ContenderCatalog.ProtobufNet, 841)]
    [InlineData("Records1024", ContenderCatalog.MessagePack, 23_380)]
    [InlineData("Records1024", ContenderCatalog.MessagePackLz4, 17_547)]
    [InlineData("Records1024", ContenderCatalog.MemoryPack, 29_536)]
    [InlineData("Records1024", ContenderCatalog.ProtobufNet, 25_219)]
    [InlineData("Folders", ContenderCatalog.MessagePack, 5_878)]
    [InlineData("Folders", ContenderCatalog.MessagePackLz4, 5_006)]
    [InlineData("Folders", ContenderCatalog.MemoryPack, 6_450)]
    [InlineData("Folders", ContenderCatalog.ProtobufNet, 5_622)]
    [InlineData("LargeObject", ContenderCatalog.MessagePack, 518_546)]
    [InlineData("LargeObject", ContenderCatalog.MessagePackLz4, 298_523)]
    [InlineData("LargeObject", ContenderCatalog.MemoryPack, 559_040)]
    [InlineData("LargeObject", ContenderCatalog.ProtobufNet, 513_833)]
    public void Serialize_Peers_HaveTheMeasuredSize(string workload, string contender, int bytes)
    {
        // MessagePack 2.5.307 (standard resolver; Guids as 36-character strings, DateTimes as timestamp extensions),
        // MemoryPack 1.21.4, protobuf-net 3.4.40 with the transcoder's model.
        Assert.Equal(bytes, Size(workload, contender));
    }

    [Theory]
    [InlineData("Records1024", ContenderCatalog.Bson, 45_883)]
    [InlineData("Records1024", ContenderCatalog.BinaryFormatter, 41_638)]
    [InlineData("Records1024", ContenderCatalog.DeflateBinaryFormatter, 21_739)]
    [InlineData("Records1024", ContenderCatalog.SystemTextJson, 41_766)]
    [InlineData("Records1024", ContenderCatalog.DataContractBinary, 43_011)]
    [InlineData("Records1024", ContenderCatalog.GoogleProtobuf, 25_215)]
    [InlineData("Folders", ContenderCatalog.Bson, 14_115)]
    [InlineData("Folders", ContenderCatalog.BinaryFormatter, 12_443)]
    [InlineData("Folders", ContenderCatalog.DeflateBinaryFormatter, 5_674)]
    [InlineData("Folders", ContenderCatalog.SystemTextJson, 12_997)]
    [InlineData("Folders", ContenderCatalog.GoogleProtobuf, 5_451)]
    [InlineData("LargeObject", ContenderCatalog.Bson, 820_143)]
    [InlineData("LargeObject", ContenderCatalog.BinaryFormatter, 849_852)]
    [InlineData("LargeObject", ContenderCatalog.DeflateBinaryFormatter, 250_086)]
    [InlineData("LargeObject", ContenderCatalog.SystemTextJson, 895_672)]
    [InlineData("LargeObject", ContenderCatalog.GoogleProtobuf, 504_730)]
    public void Serialize_TargetWorkloads_HaveTheMeasuredSize(string workload, string contender, int bytes)
    {
        Assert.Equal(bytes, Size(workload, contender));
    }

    [Theory]
    [InlineData("Int32", 4)]
    [InlineData("Int64", 8)]
    [InlineData("Double", 8)]
    [InlineData("DateTime", 8)]
    [InlineData("String40", 40)]
    [InlineData("Bytes1K", 1024)]
    [InlineData("Bytes100K", 102_400)]
    public void Serialize_PrimitivesThroughTheFloor_AreTheirRawBytes(string workload, int bytes)
    {
        Assert.Equal(bytes, Size(workload, ContenderCatalog.PlainCopy));
    }

    private static int? Size(string workload, string contender) =>
        SizeReport.Measure(WorkloadCatalog.Get(workload), ContenderCatalog.Get(contender));
}
