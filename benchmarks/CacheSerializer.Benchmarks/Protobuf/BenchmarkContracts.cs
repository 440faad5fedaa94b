using CacheSerializer.Protobuf;

namespace CacheSerializer.Benchmarks.Protobuf;

// POCO contracts with the field numbers of tests/CacheSerializer.Tests/Protobuf/Schemas/rpc.proto.

[ProtoContract]
public sealed class RpcContract
{
    [ProtoMember(1)] public int Id { get; set; }
    [ProtoMember(2)] public int Status { get; set; }
    [ProtoMember(3)] public string? Method { get; set; }
    [ProtoMember(4)] public string? Host { get; set; }
    [ProtoMember(5)] public string? Body { get; set; }
}

[ProtoContract]
public sealed class EightContract
{
    [ProtoMember(1)] public ulong A { get; set; }
    [ProtoMember(2)] public ulong B { get; set; }
    [ProtoMember(3)] public ulong C { get; set; }
    [ProtoMember(4)] public ulong D { get; set; }
    [ProtoMember(5)] public ulong E { get; set; }
    [ProtoMember(6)] public ulong F { get; set; }
    [ProtoMember(7)] public ulong G { get; set; }
    [ProtoMember(8)] public ulong H { get; set; }
}

[ProtoContract]
public sealed class RecordSetContract
{
    [ProtoMember(1)] public int Version { get; set; }
    [ProtoMember(2)] public int Count { get; set; }
    [ProtoMember(3)] public List<RecordEntryContract>? Entries { get; set; }
}

[ProtoContract]
public sealed class RecordEntryContract
{
    [ProtoMember(1)] public long Id { get; set; }
    [ProtoMember(2)] public string? Name { get; set; }
}
