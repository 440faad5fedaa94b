using CacheSerializer.Workloads.Generation;
using CacheSerializer.Workloads.Models;
using CacheSerializer.Workloads.Models.Internal;
using CacheSerializer.Workloads.Peers;
using CacheSerializer.Workloads.Protos;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;

namespace CacheSerializer.Workloads;

/// <summary>Every workload of issue 11, each built once from its fixed seed; the benchmarks, the tests and the load test share them.</summary>
public static class WorkloadCatalog
{
    /// <summary>Gets the object workloads: rpc message, eight uint64s, records (N = 1, 32, 1,024), folders, large object.</summary>
    public static IReadOnlyList<Workload> Objects { get; } =
    [
        new Workload<RpcMessage, RpcMessagePb>("RpcMessage", WorkloadKind.Object, WorkloadFactory.RpcMessage(), ProtoConvert.ToMessage, ProtoConvert.FromMessage)
            .WithPeer(PeerConvert.ToPeer, PeerConvert.FromPeer),
        new Workload<EightUInt64s, EightUInt64sPb>("EightUInt64s", WorkloadKind.Object, WorkloadFactory.EightUInt64s(), ProtoConvert.ToMessage, ProtoConvert.FromMessage)
            .WithPeer(PeerConvert.ToPeer, PeerConvert.FromPeer),
        Records(1),
        Records(32),
        Records(1024),
        new Workload<FolderCatalog, FolderCatalogPb>("Folders", WorkloadKind.Object, WorkloadFactory.Folders(), ProtoConvert.ToMessage, ProtoConvert.FromMessage)
            .WithPeer(PeerConvert.ToPeer, PeerConvert.FromPeer),
        new Workload<UserFolderTree, UserFolderTreePb>("LargeObject", WorkloadKind.Object, WorkloadFactory.LargeObject(), ProtoConvert.ToMessage, ProtoConvert.FromMessage)
            .WithPeer(PeerConvert.ToPeer, PeerConvert.FromPeer),
    ];

    /// <summary>Gets the primitive workloads: int, long, double, DateTime, a 40-character string, 1 KB and 100 KB byte arrays.</summary>
    public static IReadOnlyList<Workload> Primitives { get; } = CreatePrimitives();

    /// <summary>Gets every workload, objects first.</summary>
    public static IReadOnlyList<Workload> All { get; } = [.. Objects, .. Primitives];

    /// <summary>Returns the workload of that name.</summary>
    /// <param name="name">A name from <see cref="All"/>.</param>
    /// <returns>The workload.</returns>
    /// <exception cref="ArgumentException">No workload has that name.</exception>
    public static Workload Get(string name) =>
        All.FirstOrDefault(w => w.Name == name)
        ?? throw new ArgumentException($"No workload is named '{name}'; known: {string.Join(", ", All.Select(w => w.Name))}.", nameof(name));

    private static Workload<RecordSet, RecordSetPb> Records(int count) =>
        new Workload<RecordSet, RecordSetPb>($"Records{count}", WorkloadKind.Object, WorkloadFactory.Records(count), ProtoConvert.ToMessage, ProtoConvert.FromMessage)
            .WithPeer(PeerConvert.ToPeer, PeerConvert.FromPeer);

    private static Workload[] CreatePrimitives()
    {
        var random = new SeededRandom(0x5052_494D);
        var words = new WordGenerator(random, 64);
        int int32 = (int)random.NextUInt64();
        long int64 = (long)random.NextUInt64();
        double real = (random.NextDouble() - 0.5) * 1e9;
        // Tick precision here: the native paths keep every tick, and BSON never sees a lone DateTime (it is a primitive to it).
        var instant = new DateTime(random.NextInt64(new DateTime(2015, 1, 1).Ticks, new DateTime(2025, 1, 1).Ticks), DateTimeKind.Utc);
        string text = words.Phrase(40, ' ');
        byte[] small = RandomBytes(random, 1024);
        byte[] large = RandomBytes(random, 100 * 1024);
        return
        [
            new Workload<int, Int32Value>("Int32", WorkloadKind.Primitive, int32, v => new Int32Value { Value = v }, m => m.Value),
            new Workload<long, Int64Value>("Int64", WorkloadKind.Primitive, int64, v => new Int64Value { Value = v }, m => m.Value),
            new Workload<double, DoubleValue>("Double", WorkloadKind.Primitive, real, v => new DoubleValue { Value = v }, m => m.Value),
            new Workload<DateTime, Timestamp>("DateTime", WorkloadKind.Primitive, instant, Timestamp.FromDateTime, m => m.ToDateTime(), Same.Time),
            new Workload<string, StringValue>("String40", WorkloadKind.Primitive, text, v => new StringValue { Value = v }, m => m.Value),
            new Workload<byte[], BytesValue>("Bytes1K", WorkloadKind.Primitive, small, v => new BytesValue { Value = ByteString.CopyFrom(v) }, m => m.Value.ToByteArray(), SameBytes),
            new Workload<byte[], BytesValue>("Bytes100K", WorkloadKind.Primitive, large, v => new BytesValue { Value = ByteString.CopyFrom(v) }, m => m.Value.ToByteArray(), SameBytes),
        ];
    }

    // Random bytes: cached byte arrays are mostly already-compressed media or serialized blobs, which compress no better.
    private static byte[] RandomBytes(SeededRandom random, int length)
    {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i += 8)
        {
            BitConverter.TryWriteBytes(bytes.AsSpan(i), random.NextUInt64());
        }

        return bytes;
    }

    private static bool SameBytes(byte[] a, byte[] b) => a.AsSpan().SequenceEqual(b);
}
