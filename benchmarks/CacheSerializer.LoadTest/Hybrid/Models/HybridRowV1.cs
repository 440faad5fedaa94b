using System.ComponentModel;
using ProtoBuf;

namespace CacheSerializer.LoadTest.Hybrid.Models;

/// <summary>Build 1's row: its price in cents. Sealed and immutable, so that every contender's L1 can hand out the
/// instance itself, as an application's cached type should be for Microsoft's HybridCache.</summary>
[ProtoContract]
[ImmutableObject(true)]
internal sealed class HybridRowV1 : IHybridRow
{

    /// <inheritdoc/>
    [ProtoMember(1)]
    public int Key { get; init; }

    /// <inheritdoc/>
    [ProtoMember(2)]
    public int Version { get; init; }

    /// <summary>Gets the price in cents.</summary>
    [ProtoMember(3)]
    public int Price { get; init; }

    /// <inheritdoc/>
    [System.Text.Json.Serialization.JsonIgnore]
    public RowMarks Marks { get; } = new();

    /// <summary>Makes version <paramref name="version"/> of key <paramref name="key"/>'s row, as build 1's factory does.</summary>
    /// <param name="key">The key's number.</param>
    /// <param name="version">The row's version.</param>
    /// <returns>The row, marked as made by a factory.</returns>
    public static HybridRowV1 Create(int key, int version)
    {
        var row = new HybridRowV1 { Key = key, Version = version, Price = (key * 100) + version };
        row.Marks.MarkMadeByFactory();
        return row;
    }
}
