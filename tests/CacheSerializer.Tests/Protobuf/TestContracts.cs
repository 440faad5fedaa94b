using System.Net;
using System.Runtime.Serialization;
using CacheSerializer.Protobuf;

namespace CacheSerializer.Tests.Protobuf;

// POCO contracts with the field numbers of Schemas/*.proto, plus the trap-shaped types the engine must handle.

[ProtoContract]
public sealed record class RpcPoco
{
    [ProtoMember(1)] public int Id { get; set; }
    [ProtoMember(2)] public int Status { get; set; }
    [ProtoMember(3)] public string? Method { get; set; }
    [ProtoMember(4)] public string? Host { get; set; }
    [ProtoMember(5)] public string? Body { get; set; }
}

[ProtoContract]
public sealed record class EightPoco
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
public sealed class RecordSetPoco
{
    [ProtoMember(1)] public int Version { get; set; }
    [ProtoMember(2)] public int Count { get; set; }
    [ProtoMember(3)] public List<RecordEntryPoco>? Entries { get; set; }
}

[ProtoContract]
public sealed record class RecordEntryPoco
{
    [ProtoMember(1)] public long Id { get; set; }
    [ProtoMember(2)] public string? Name { get; set; }
}

[ProtoContract]
public sealed record class InnerPoco
{
    [ProtoMember(1)] public int Number { get; set; }
    [ProtoMember(2)] public string? Text { get; set; }
}

[ProtoContract]
public sealed class OuterPoco
{
    [ProtoMember(1)] public InnerPoco? First { get; set; }
    [ProtoMember(2)] public List<InnerPoco>? Items { get; set; }
    [ProtoMember(3)] public string? Name { get; set; }
    [ProtoMember(4)] public double Ratio { get; set; }
    [ProtoMember(5)] public float Weight { get; set; }
    [ProtoMember(6)] public bool Flag { get; set; }
    [ProtoMember(7)] public long Big { get; set; }
    [ProtoMember(8)] public byte[]? Blob { get; set; }
}

[ProtoContract]
public sealed class MapsPoco
{
    [ProtoMember(1)] public Dictionary<string, int>? Counts { get; set; }
    [ProtoMember(2)] public IDictionary<int, string>? Names { get; set; }
    [ProtoMember(3)] public Dictionary<string, InnerPoco>? Inners { get; set; }
}

[ProtoContract]
public sealed class RepeatsPoco
{
    [ProtoMember(1, IsPacked = true)] public int[]? PackedInts { get; set; }
    [ProtoMember(2)] public List<int>? UnpackedInts { get; set; }
    [ProtoMember(3, IsPacked = true)] public List<double>? PackedDoubles { get; set; }
    [ProtoMember(4)] public IList<string>? Words { get; set; }
    [ProtoMember(5, IsPacked = true)] public ulong[]? PackedLongs { get; set; }
}

[ProtoContract]
[ProtoInclude(10, typeof(CirclePoco))]
[ProtoInclude(11, typeof(SquarePoco))]
public abstract class ShapePoco
{
    [ProtoMember(1)] public int Id { get; set; }
    [ProtoMember(2)] public string? Label { get; set; }
}

[ProtoContract]
public sealed class CirclePoco : ShapePoco
{
    [ProtoMember(1)] public double Radius { get; set; }
}

[ProtoContract]
[ProtoInclude(20, typeof(RoundedSquarePoco))]
public class SquarePoco : ShapePoco
{
    [ProtoMember(1)] public double Side { get; set; }
}

[ProtoContract]
public sealed class RoundedSquarePoco : SquarePoco
{
    [ProtoMember(1)] public double CornerRadius { get; set; }

    private bool _afterDeserializationRan;

    // A method, not a property, so structural comparisons of instances ignore it.
    public bool AfterDeserializationRan() => _afterDeserializationRan;

    [OnDeserialized]
    private void OnDeserialized(StreamingContext context) => _afterDeserializationRan = true;
}

/// <summary>A concrete base with a three-level hierarchy, for both Deserialize overloads.</summary>
[ProtoContract]
[ProtoInclude(5, typeof(Mammal))]
public class Animal
{
    [ProtoMember(1)] public string? Name { get; set; }
}

[ProtoContract]
[ProtoInclude(6, typeof(Dog))]
public class Mammal : Animal
{
    [ProtoMember(1)] public int Legs { get; set; }
}

[ProtoContract]
public sealed class Dog : Mammal
{
    [ProtoMember(1)] public bool GoodBoy { get; set; }
}

/// <summary>Derives from a contract without being declared: must never be stored lossy.</summary>
public sealed class Cat : Animal
{
    public int Lives { get; set; }
}

[ProtoContract]
[ProtoInclude(1, typeof(DuplicateChild))]
public class DuplicateNumber
{
    [ProtoMember(1)] public int Clash { get; set; }
}

[ProtoContract]
public sealed class DuplicateChild : DuplicateNumber
{
}

[ProtoContract]
public sealed class NullEmptyPoco
{
    [ProtoMember(1)] public List<int>? Ints { get; set; }
    [ProtoMember(2)] public string[]? Words { get; set; }
    [ProtoMember(3)] public string? Text { get; set; }
    [ProtoMember(4)] public Dictionary<string, int>? Map { get; set; }
    [ProtoMember(5)] public HashSet<long>? Set { get; set; }
    [ProtoMember(6)] public byte[]? Blob { get; set; }
    [ProtoMember(7)] public List<InnerPoco>? Inners { get; set; }
    [ProtoMember(20)] public int[]? HighNumbered { get; set; }
}

/// <summary>A list that adds members of its own: protobuf-net would drop Owner and Revision silently.</summary>
public sealed class OrderList : List<InnerPoco>
{
    public string? Owner { get; set; }

    public int Revision;
}

/// <summary>A list subclass without members of its own: an ordinary list.</summary>
public sealed class PlainList : List<int>
{
}

[ProtoContract]
public sealed class HoldsOrderList
{
    [ProtoMember(1)] public OrderList? Orders { get; set; }
}

[ProtoContract]
public sealed class HoldsPlainList
{
    [ProtoMember(1)] public PlainList? Numbers { get; set; }
}

[ProtoContract]
public sealed class ParseablePoco
{
    [ProtoMember(1)] public Version? Version { get; set; }
    [ProtoMember(2)] public Uri? Link { get; set; }
    [ProtoMember(3)] public IPAddress? Address { get; set; }
}

[ProtoContract]
public sealed class VersionOnlyPoco
{
    [ProtoMember(1)] public Version? Version { get; set; }
}

public enum Color
{
    None = 0,
    Red = 1,
    Negative = -1,
}

public enum ByteFlags : byte
{
    None = 0,
    High = 200,
}

[ProtoContract]
public struct PointStruct
{
    [ProtoMember(1)] public int X { get; set; }
    [ProtoMember(2)] public int Y { get; set; }
}

[ProtoContract]
public sealed class EverythingPoco
{
    [ProtoMember(1)] public bool Bool { get; set; }
    [ProtoMember(2)] public byte Byte { get; set; }
    [ProtoMember(3)] public sbyte SByte { get; set; }
    [ProtoMember(4)] public short Short { get; set; }
    [ProtoMember(5)] public ushort UShort { get; set; }
    [ProtoMember(6)] public int Int { get; set; }
    [ProtoMember(7)] public uint UInt { get; set; }
    [ProtoMember(8)] public long Long { get; set; }
    [ProtoMember(9)] public ulong ULong { get; set; }
    [ProtoMember(10)] public float Float { get; set; }
    [ProtoMember(11)] public double Double { get; set; }
    [ProtoMember(12)] public char Char { get; set; }
    [ProtoMember(13)] public decimal Decimal { get; set; }
    [ProtoMember(14)] public DateTime DateTime { get; set; }
    [ProtoMember(15)] public TimeSpan TimeSpan { get; set; }
    [ProtoMember(16)] public Guid Guid { get; set; }
    [ProtoMember(17)] public DateTimeOffset DateTimeOffset { get; set; }
    [ProtoMember(18)] public DateOnly DateOnly { get; set; }
    [ProtoMember(19)] public TimeOnly TimeOnly { get; set; }
    [ProtoMember(20)] public Color Color { get; set; }
    [ProtoMember(21)] public ByteFlags Flags { get; set; }
    [ProtoMember(22)] public int? NullableInt { get; set; }
    [ProtoMember(23)] public DateTime? NullableDate { get; set; }
    [ProtoMember(24)] public PointStruct Point { get; set; }
    [ProtoMember(25)] public PointStruct? MaybePoint { get; set; }
    [ProtoMember(26)] public HashSet<string>? Tags { get; set; }
    [ProtoMember(27)] public IReadOnlyList<long>? ReadOnlyLongs { get; set; }
    [ProtoMember(28)] public IEnumerable<Guid>? Guids { get; set; }
    [ProtoMember(29)] public ICollection<Color>? Colors { get; set; }
    [ProtoMember(30)] public IReadOnlyDictionary<long, decimal>? Prices { get; set; }
    [ProtoMember(31)] public byte[]? Blob { get; set; }
}

/// <summary>Private fields, init-only and private-set properties, get-only collections filled in place, SkipConstructor.</summary>
[ProtoContract(SkipConstructor = true)]
public sealed class EncapsulatedPoco
{
    [ProtoMember(1)] private int _secret;

    public EncapsulatedPoco(int secret, string name)
    {
        _secret = secret;
        Name = name;
    }

    [ProtoMember(2)] public string Name { get; init; }

    [ProtoMember(3)] public int Counter { get; private set; }

    public int Secret => _secret;

    public void Increment() => Counter++;
}

[ProtoContract]
public sealed class GetOnlyCollectionsPoco
{
    [ProtoMember(1)] public List<string> Items { get; } = [];

    [ProtoMember(2)] public Dictionary<int, string> Lookup { get; } = [];

    public int ConstructorRuns { get; } = ++s_constructed;

    private static int s_constructed;
}

[DataContract]
public sealed class DataContractPoco
{
    [DataMember(Order = 1)] public int Number { get; set; }
    [DataMember(Order = 2)] public string? Text { get; set; }
    public string? NotSerialized { get; set; }
}

[ProtoContract]
public sealed class TreeNode
{
    [ProtoMember(1)] public int Value { get; set; }
    [ProtoMember(2)] public TreeNode? Child { get; set; }
    [ProtoMember(3)] public List<TreeNode>? Children { get; set; }
}

[ProtoContract]
public sealed class PersonV1
{
    [ProtoMember(1)] public string? Name { get; set; }
    [ProtoMember(2)] public int Age { get; set; }
}

[ProtoContract]
public sealed class PersonV2
{
    [ProtoMember(1)] public string? Name { get; set; }
    [ProtoMember(3)] public List<string>? Emails { get; set; }
    [ProtoMember(4)] public DateTime Born { get; set; }
    [ProtoMember(5)] public InnerPoco? Extra { get; set; }
}
