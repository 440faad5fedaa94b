using ProtoBuf;

namespace CacheSerializer.Tests.Memcached.Fixtures;

/// <summary>An order as the build being replaced stores it.</summary>
[ProtoContract]
public sealed class OrderBefore
{
    [ProtoMember(1)]
    public string? Name { get; set; }
}

/// <summary>The same order in the new build: a member was added, so its contract (and fingerprint) differs.</summary>
[ProtoContract]
public sealed class OrderAfter
{
    [ProtoMember(1)]
    public string? Name { get; set; }

    [ProtoMember(2)]
    public int Quantity { get; set; }
}

/// <summary>Two builds of a rolling deploy, as two transcoders that give <see cref="OrderBefore"/> and
/// <see cref="OrderAfter"/> the same type alias (as two builds give one type name to two versions of a class), and the
/// items the new build cannot read.</summary>
internal static class DeployBuilds
{
    /// <summary>Gets the kinds of unreadable item: another build's contract, a type this build does not know, a body
    /// protobuf-net rejects, and a failed decompression.</summary>
    internal static string[] Scenarios => ["other_contract", "unknown_type", "corrupt_body", "failed_decompression"];

    /// <summary>The build being replaced: <see cref="OrderBefore"/> under alias 41.</summary>
    internal static ProtobufTranscoder OldBuild() => new(new ProtobufTranscoderOptions { TypeAliases = { [typeof(OrderBefore)] = 41 } });

    /// <summary>The new build: <see cref="OrderAfter"/> under alias 41.</summary>
    internal static ProtobufTranscoder NewBuild() => new(new ProtobufTranscoderOptions { TypeAliases = { [typeof(OrderAfter)] = 41 } });

    /// <summary>The metric's reason for a kind.</summary>
    internal static string ReasonTag(TranscoderErrorKind kind) => kind switch
    {
        TranscoderErrorKind.OtherContract => "other_contract",
        TranscoderErrorKind.UnknownType => "unknown_type",
        _ => "malformed",
    };

    /// <summary>An item the new build cannot read, and the kind its transcoder reports for it.</summary>
    internal static (CacheItem Item, TranscoderErrorKind Kind) Unreadable(string scenario)
    {
        CacheItem item;
        TranscoderErrorKind kind;
        switch (scenario)
        {
            case "other_contract":
                // The build being replaced: the same alias, the class before a member was added.
                item = OldBuild().Serialize(new OrderBefore { Name = "old" });
                kind = TranscoderErrorKind.OtherContract;
                break;
            case "unknown_type":
                // A newer build's type, under an alias this build does not have.
                var newerBuild = new ProtobufTranscoder(new ProtobufTranscoderOptions { TypeAliases = { [typeof(OrderBefore)] = 42 } });
                item = newerBuild.Serialize(new OrderBefore { Name = "newer" });
                kind = TranscoderErrorKind.UnknownType;
                break;
            case "corrupt_body":
                // This build's own item, with a field that claims 100 bytes and has 1: protobuf-net rejects the body.
                CacheItem valid = NewBuild().Serialize(new OrderAfter { Name = "n", Quantity = 1 });
                item = new CacheItem(valid.Flags, new ArraySegment<byte>([.. valid.Data, 0x0A, 0x64, 0x41]));
                kind = TranscoderErrorKind.Malformed;
                break;
            case "failed_decompression":
                // A compressed item cut in half: the decompressor fails before the body is read.
                var compressing = new ProtobufTranscoder(new ProtobufTranscoderOptions
                {
                    TypeAliases = { [typeof(OrderAfter)] = 41 },
                    Compression = TranscoderCompression.Brotli,
                    CompressionThreshold = 64,
                });
                CacheItem compressed = compressing.Serialize(new OrderAfter { Name = string.Concat(Enumerable.Range(0, 200).Select(i => i.ToString("X4"))), Quantity = 2 });
                Assert.NotEqual(NewBuild().Serialize(new OrderAfter()).Flags, compressed.Flags);
                item = new CacheItem(compressed.Flags, compressed.Data.AsSpan(0, compressed.Data.Count / 2).ToArray());
                kind = TranscoderErrorKind.Malformed;
                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(scenario), scenario, null);
        }

        // The kind the new build's transcoder reports, checked here so that no test passes for another reason.
        TranscoderException thrown = Assert.ThrowsAny<TranscoderException>(() => NewBuild().Deserialize<OrderAfter>(item));
        Assert.Equal(kind, thrown.Kind);
        return (item, kind);
    }
}
