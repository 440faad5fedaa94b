using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using CacheSerializer.Protobuf;
using CacheSerializer.Tests.Protobuf.Generated;
using Google.Protobuf;

namespace CacheSerializer.Benchmarks.Protobuf;

/// <summary>
/// The engine against Google.Protobuf's generated code (the baseline of each category) on the same schema and values.
/// Targets (issue 8): Serialize at most 1.2x Google's time, Deserialize at most 1.3x, allocations at most Google's plus one object.
/// </summary>
/// <remarks>Each setup checks that both sides produce the same bytes, so the comparison is of equal work.</remarks>
[MemoryDiagnoser]
[CategoriesColumn]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
public abstract class ProtobufBenchmarkBase<TContract, TMessage>
    where TMessage : IMessage<TMessage>
{
    private readonly ProtoModel _model = new();
    private TContract _contract = default!;
    private TMessage _message = default!;
    private byte[] _bytes = [];

    protected abstract MessageParser<TMessage> Parser { get; }

    [GlobalSetup]
    public void Setup()
    {
        (_contract, _message) = Create();
        _bytes = _message.ToByteArray();
        if (!_bytes.AsSpan().SequenceEqual(_model.Serialize(_contract)))
        {
            throw new InvalidOperationException($"{typeof(TContract).Name}: the engine's bytes differ from Google's; the benchmark would compare unequal work.");
        }
    }

    [Benchmark(Baseline = true, Description = "Google")]
    [BenchmarkCategory("Serialize")]
    public byte[] SerializeGoogle() => _message.ToByteArray();

    [Benchmark(Description = "Engine")]
    [BenchmarkCategory("Serialize")]
    public byte[] SerializeEngine() => _model.Serialize(_contract);

    [Benchmark(Baseline = true, Description = "Google")]
    [BenchmarkCategory("Deserialize")]
    public TMessage DeserializeGoogle() => Parser.ParseFrom(_bytes);

    [Benchmark(Description = "Engine")]
    [BenchmarkCategory("Deserialize")]
    public TContract DeserializeEngine() => _model.Deserialize<TContract>(_bytes);

    protected abstract (TContract Contract, TMessage Message) Create();
}

public class ProtobufRpcBenchmarks : ProtobufBenchmarkBase<RpcContract, RpcMessage>
{
    protected override MessageParser<RpcMessage> Parser => RpcMessage.Parser;

    protected override (RpcContract, RpcMessage) Create() => (
        new RpcContract { Id = 123456, Status = 200, Method = "Orders.GetByCustomer", Host = "api-7.internal.example", Body = "{\"customer\":42,\"page\":3,\"size\":50}" },
        new RpcMessage { Id = 123456, Status = 200, Method = "Orders.GetByCustomer", Host = "api-7.internal.example", Body = "{\"customer\":42,\"page\":3,\"size\":50}" });
}

public class ProtobufEightUInt64Benchmarks : ProtobufBenchmarkBase<EightContract, EightUInt64>
{
    protected override MessageParser<EightUInt64> Parser => EightUInt64.Parser;

    protected override (EightContract, EightUInt64) Create() => (
        new EightContract { A = 1, B = 300, C = 70_000, D = 1UL << 35, E = 1UL << 50, F = ulong.MaxValue, G = 12345678901, H = 42 },
        new EightUInt64 { A = 1, B = 300, C = 70_000, D = 1UL << 35, E = 1UL << 50, F = ulong.MaxValue, G = 12345678901, H = 42 });
}

public class ProtobufRecordsBenchmarks : ProtobufBenchmarkBase<RecordSetContract, RecordSet>
{
    [Params(1, 32, 1024)]
    public int N { get; set; }

    protected override MessageParser<RecordSet> Parser => RecordSet.Parser;

    protected override (RecordSetContract, RecordSet) Create()
    {
        var contract = new RecordSetContract { Version = 2, Count = N, Entries = new List<RecordEntryContract>(N) };
        var message = new RecordSet { Version = 2, Count = N };
        for (int i = 0; i < N; i++)
        {
            contract.Entries.Add(new RecordEntryContract { Id = 1_000_000L + i, Name = "customer-" + i });
            message.Entries.Add(new RecordEntry { Id = 1_000_000L + i, Name = "customer-" + i });
        }

        return (contract, message);
    }
}
