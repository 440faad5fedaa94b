using System.ComponentModel;
using System.Net;
using ProtoBuf;

#pragma warning disable CA1819, CA2227 // test contracts: arrays and settable collections are the shapes under test

namespace CacheSerializer.Tests.Transcoding.Contracts;

// Shapes from protobuf-net's own option surface, each compared byte for byte with protobuf-net's Serialize.

public enum Colour
{
    None = 0,
    Red = 1,
    Blue = -3,
}

[ProtoContract]
public sealed record Formats
{
    [ProtoMember(1)] public int Plain { get; set; }
    [ProtoMember(2, DataFormat = DataFormat.ZigZag)] public int ZigZag { get; set; }
    [ProtoMember(3, DataFormat = DataFormat.FixedSize)] public long Fixed { get; set; }
    [ProtoMember(4, DataFormat = DataFormat.ZigZag)] public long ZigZagLong { get; set; }
    [ProtoMember(5, DataFormat = DataFormat.FixedSize)] public uint FixedUnsigned { get; set; }
    [ProtoMember(6)] public Colour Colour { get; set; }
    [ProtoMember(7)] public double Real { get; set; }
    [ProtoMember(8)] public float Single { get; set; }
    [ProtoMember(9)] public bool Flag { get; set; }
    [ProtoMember(10)] public string? Text { get; set; }
    [ProtoMember(11)] public byte[]? Blob { get; set; }
    [ProtoMember(12)] public ulong Big { get; set; }
}

// [DefaultValue] members are written only when they differ from it; IsRequired ones always.
[ProtoContract]
public sealed record Defaults
{
    [ProtoMember(1), DefaultValue(5)] public int Five { get; set; } = 5;
    [ProtoMember(2, IsRequired = true)] public int Required { get; set; }
    [ProtoMember(3), DefaultValue("none")] public string Label { get; set; } = "none";
}

[ProtoContract]
public sealed record Nullables
{
    [ProtoMember(1)] public int? Count { get; set; }
    [ProtoMember(2)] public Colour? Colour { get; set; }
    [ProtoMember(3)] public double? Real { get; set; }
    [ProtoMember(4)] public Guid? Id { get; set; }
}

[ProtoContract]
public sealed record Point3
{
    [ProtoMember(1)] public int X { get; set; }
    [ProtoMember(2)] public int Y { get; set; }
    [ProtoMember(3)] public int Z { get; set; }
}

[ProtoContract]
public sealed record Grouped
{
    [ProtoMember(1, DataFormat = DataFormat.Group)] public Point3? AsGroup { get; set; }
    [ProtoMember(2)] public Point3? AsMessage { get; set; }
}

// The BCL types protobuf-net writes in its bcl.proto layouts (or, for DateOnly/TimeOnly, as integers), and the
// parseable ones (AllowParseableTypes: Version, IPAddress as their ToString()).
[ProtoContract]
public sealed record BclValues
{
    [ProtoMember(1)] public DateTime When { get; set; }
    [ProtoMember(2)] public decimal Money { get; set; }
    [ProtoMember(3)] public Guid Id { get; set; }
    [ProtoMember(4)] public TimeSpan Span { get; set; }
    [ProtoMember(5)] public DateOnly Day { get; set; }
    [ProtoMember(6)] public TimeOnly Time { get; set; }
    [ProtoMember(7)] public Version? Version { get; set; }
    [ProtoMember(8)] public IPAddress? Address { get; set; }
    [ProtoMember(9)] public Uri? Link { get; set; }
}

[ProtoContract]
public sealed record Offsets
{
    [ProtoMember(1)] public DateTimeOffset At { get; set; }
    [ProtoMember(2)] public DateTimeOffset? Maybe { get; set; }
}

// Maps with their key and value formats; a map of contracts.
[ProtoContract]
public sealed record Maps
{
    [ProtoMember(1), ProtoMap(KeyFormat = DataFormat.ZigZag, ValueFormat = DataFormat.FixedSize)]
    public Dictionary<int, long>? Numbers { get; set; }

    [ProtoMember(2)] public Dictionary<string, Point3>? Points { get; set; }

    [ProtoMember(3), ProtoMap(DisableMap = true)] public Dictionary<string, string>? NotAMap { get; set; }
}

// Every collection member already carries protobuf-net's own attribute, so a plain protobuf-net model writes the same
// bytes as the transcoder's default model (which applies the layout to members that lack it).
[ProtoContract]
public sealed record Wrapped
{
    [ProtoMember(1), NullWrappedCollection] public List<string>? Names { get; set; }
    [ProtoMember(2), NullWrappedCollection] public int[]? Numbers { get; set; }
    [ProtoMember(3, IsPacked = true), NullWrappedCollection] public List<long>? Packed { get; set; }
    [ProtoMember(4), NullWrappedCollection] public Dictionary<string, int>? Counts { get; set; }
    [ProtoMember(5), NullWrappedCollection] public HashSet<Guid>? Ids { get; set; }
    [ProtoMember(6), NullWrappedCollection] public List<Point3>? Points { get; set; }
}

// The same members without the attribute: the shape most applications have.
[ProtoContract]
public sealed record Unwrapped
{
    [ProtoMember(1)] public List<string>? Names { get; set; }
    [ProtoMember(2)] public int[]? Numbers { get; set; }
    [ProtoMember(3, IsPacked = true)] public List<long>? Packed { get; set; }
    [ProtoMember(4)] public Dictionary<string, int>? Counts { get; set; }
    [ProtoMember(5)] public HashSet<Guid>? Ids { get; set; }
    [ProtoMember(6)] public List<Point3>? Points { get; set; }
}

// A type written through its surrogate (protobuf-net's [ProtoContract(Surrogate = ...)]).
[ProtoContract(Surrogate = typeof(MoneySurrogate))]
public readonly record struct Money(string Currency, long Cents);

[ProtoContract]
public struct MoneySurrogate
{
    [ProtoMember(1)] public string? Currency;
    [ProtoMember(2)] public long Cents;

    public static implicit operator MoneySurrogate(Money value) => new() { Currency = value.Currency, Cents = value.Cents };

    public static implicit operator Money(MoneySurrogate value) => new(value.Currency ?? "", value.Cents);
}

[ProtoContract]
public sealed record Priced
{
    [ProtoMember(1)] public Money Price { get; set; }
    [ProtoMember(2)] public List<Money>? History { get; set; }
}

// A chain of includes: Animal -(5)-> Mammal -(6)-> Dog.
[ProtoContract]
[ProtoInclude(5, typeof(Mammal))]
public record Animal
{
    [ProtoMember(1)] public string? Name { get; set; }
}

[ProtoContract]
[ProtoInclude(6, typeof(Dog))]
public record Mammal : Animal
{
    [ProtoMember(1)] public int Legs { get; set; }
}

[ProtoContract]
public sealed record Dog : Mammal
{
    [ProtoMember(1)] public bool GoodBoy { get; set; }
}

[ProtoContract]
public sealed record Kennel
{
    [ProtoMember(1)] public Animal? Resident { get; set; }
    [ProtoMember(2)] public List<Animal>? Visitors { get; set; }
}

// Data contracts work as with protobuf-net anywhere: Order is the field number.
[System.Runtime.Serialization.DataContract]
public sealed record DataContractShape
{
    [System.Runtime.Serialization.DataMember(Order = 1)] public int Id { get; set; }
    [System.Runtime.Serialization.DataMember(Order = 2)] public string? Name { get; set; }
}

// ---- The traps: each must be refused at Serialize, or kept, never silently lost. ----

#pragma warning disable PBN0003, PBN0013, PBN0014 // protobuf-net's analyzers flag these at build time; they are kept on purpose

// The seed's "duplicate property tags": an include number that a member also uses.
[ProtoContract]
[ProtoInclude(2, typeof(ClashingChild))]
public record Clashing
{
    [ProtoMember(1)] public int A { get; set; }
    [ProtoMember(2)] public int B { get; set; }
}

[ProtoContract]
public sealed record ClashingChild : Clashing
{
    [ProtoMember(1)] public int C { get; set; }
}

[ProtoContract]
public sealed record HoldsClashing
{
    [ProtoMember(1)] public List<Clashing>? Items { get; set; }
}

// A contract whose base contract does not include it: protobuf-net would write only Extra and read back a Basic.
[ProtoContract]
public record Basic
{
    [ProtoMember(1)] public int Id { get; set; }
    [ProtoMember(2)] public string? Name { get; set; }
}

[ProtoContract]
public sealed record Extended : Basic
{
    [ProtoMember(3)] public int Extra { get; set; }
}

[ProtoContract]
public sealed record HoldsExtended
{
    [ProtoMember(1)] public Extended? Value { get; set; }
}

#pragma warning restore PBN0003, PBN0013, PBN0014

// Collection classes with members of their own: protobuf-net writes only the items.
[ProtoContract]
public sealed class TaggedList : List<string>
{
    [ProtoMember(1)] public string? Tag { get; set; }
}

public sealed class NamedCollection : System.Collections.ObjectModel.Collection<int>
{
    public string? Name { get; set; }
}

[ProtoContract]
public sealed record HoldsTaggedList
{
    [ProtoMember(1)] public TaggedList? Tags { get; set; }
}

[ProtoContract]
public sealed record HoldsNamedCollections
{
    [ProtoMember(1)] public Dictionary<string, NamedCollection>? ByName { get; set; }
}

// The fix protobuf-net offers: a collection class written as a contract, its items not at all.
[ProtoContract(IgnoreListHandling = true)]
public sealed class CountedList : List<int>
{
    [ProtoMember(1)] public int Count2 { get; set; }
}

// A collection class without members of its own is fine: its items are all it has.
public sealed class Names : List<string>;

[ProtoContract]
public sealed record HoldsNames
{
    [ProtoMember(1)] public Names? Values { get; set; }
}

// protobuf-net writes a ReadOnlyCollection member but cannot create one to read it back.
[ProtoContract]
public sealed record HoldsReadOnly
{
    [ProtoMember(1)] public System.Collections.ObjectModel.ReadOnlyCollection<int>? Values { get; set; }
}

// No contract at all.
public sealed class NoContract
{
    public int Id { get; set; }
}

// Two types whose stable names have the same 32-bit FNV-1a hash (0x8342CDDE): the second one used is refused.
public static class HashTwins
{
    [ProtoContract]
    public sealed class TK2TX
    {
        [ProtoMember(1)] public int Id { get; set; }
    }

    [ProtoContract]
    public sealed class TWC0A
    {
        [ProtoMember(1)] public int Id { get; set; }
    }
}

// A collection the constructor fills: protobuf-net appends to it when reading.
[ProtoContract]
public sealed record Prefilled
{
    [ProtoMember(1)] public List<string>? Tags { get; set; } = ["default"];
}

// The same with OverwriteList: protobuf-net clears the list only when an item arrives, so empty still reads back filled.
[ProtoContract]
public sealed record PrefilledOverwritten
{
    [ProtoMember(1, OverwriteList = true)] public List<string>? Tags { get; set; } = ["default"];
}

// A collection the constructor creates empty: the common initialiser; only null cannot come back.
[ProtoContract]
public sealed record Initialised
{
    [ProtoMember(1)] public List<string> Tags { get; set; } = [];
}

// protobuf-net writes it, but has no constructor to create one when reading (its analyzer says so at build time, PBN0015).
#pragma warning disable PBN0015
[ProtoContract]
public sealed class NoParameterlessConstructor
{
    public NoParameterlessConstructor(int seed) => X = seed;

    [ProtoMember(1)] public int X { get; set; }

    [ProtoMember(2)] public string? Y { get; set; }
}
#pragma warning restore PBN0015
