using System.ComponentModel;
using System.Globalization;
using ProtoBuf;

namespace CacheSerializer.LoadTest.Hybrid.Models;

/// <summary>Build 2's row: the price retyped to text (same member, same field number), a contract change no build reads
/// across, whatever the serializer: protobuf's wire type changes (the transcoder's fingerprint with it) and JSON's
/// number becomes a string.</summary>
[ProtoContract]
[ImmutableObject(true)]
internal sealed class HybridRowV2 : IHybridRow
{

    /// <inheritdoc/>
    [ProtoMember(1)]
    public int Key { get; init; }

    /// <inheritdoc/>
    [ProtoMember(2)]
    public int Version { get; init; }

    /// <summary>Gets the price, as text ("12.34").</summary>
    [ProtoMember(3)]
    public string Price { get; init; } = string.Empty;

    /// <inheritdoc/>
    [System.Text.Json.Serialization.JsonIgnore]
    public RowMarks Marks { get; } = new();

    /// <summary>Makes version <paramref name="version"/> of key <paramref name="key"/>'s row, as build 2's factory does.</summary>
    /// <param name="key">The key's number.</param>
    /// <param name="version">The row's version.</param>
    /// <returns>The row, marked as made by a factory.</returns>
    public static HybridRowV2 Create(int key, int version)
    {
        var row = new HybridRowV2 { Key = key, Version = version, Price = (((key * 100) + version) / 100m).ToString("0.00", CultureInfo.InvariantCulture) };
        row.Marks.MarkMadeByFactory();
        return row;
    }
}
