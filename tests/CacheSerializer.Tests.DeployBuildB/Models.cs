using System.ComponentModel;
using ProtoBuf;

// Build B of the models in CacheSerializer.Tests.DeployBuildA: the next deploy. Each type differs from its twin by the
// change its name says; Identical and WithDateTimeOffset do not differ at all, MemberRenamed only in a C# name.
namespace CacheSerializer.Deploy;

[ProtoContract]
public class Identical
{
    [ProtoMember(1)] public int Id { get; set; }
    [ProtoMember(2)] public string? Name { get; set; }
    [ProtoMember(3)] public List<string>? Tags { get; set; }
}

[ProtoContract]
public class MemberRenamed
{
    [ProtoMember(1)] public int Id { get; set; }
    [ProtoMember(2)] public string? Heading { get; set; }
}

[ProtoContract]
public class MemberAdded
{
    [ProtoMember(1)] public int Id { get; set; }
    [ProtoMember(2)] public string? Name { get; set; }
    [ProtoMember(3)] public decimal Price { get; set; }
}

[ProtoContract]
public class MemberRemoved
{
    [ProtoMember(1)] public int Id { get; set; }
}

[ProtoContract]
public class MemberRetyped
{
    [ProtoMember(1)] public int Id { get; set; }
    [ProtoMember(2)] public int Code { get; set; }
}

[ProtoContract]
public class DecimalToDouble
{
    [ProtoMember(1)] public double Price { get; set; }
}

[ProtoContract]
public class NestedRetyped
{
    [ProtoMember(1)] public NestedRetypedPart? Part { get; set; }
}

[ProtoContract]
public class NestedRetypedPart
{
    [ProtoMember(1)] public string? Count { get; set; }
}

[ProtoContract]
public class StringToContract
{
    [ProtoMember(1)] public StringToContractAddress? Address { get; set; }
}

[ProtoContract]
public class StringToContractAddress
{
    [ProtoMember(1)] public string? Street { get; set; }
}

[ProtoContract]
public class ListRetyped
{
    [ProtoMember(1)] public List<int>? Values { get; set; }
}

[ProtoContract]
public class DefaultChanged
{
    [ProtoMember(1), DefaultValue(7)] public int Level { get; set; } = 7;
}

[ProtoContract]
public class FormatChanged
{
    [ProtoMember(1)] public int Delta { get; set; }
}

[ProtoContract]
public class ParseableRetyped
{
    [ProtoMember(1)] public string? Version { get; set; }
}

[ProtoContract]
public class TypeRenamedNew
{
    [ProtoMember(1)] public int Id { get; set; }
}

[ProtoContract]
public class SubtypeRemovedBase
{
    [ProtoMember(1)] public int Id { get; set; }
}

[ProtoContract, ProtoInclude(10, typeof(SubtypeAddedSub))]
public class SubtypeAddedBase
{
    [ProtoMember(1)] public int Id { get; set; }
}

[ProtoContract]
public class SubtypeAddedSub : SubtypeAddedBase
{
    [ProtoMember(1)] public string? Extra { get; set; }
}

[ProtoContract]
public class WithDateTimeOffset
{
    [ProtoMember(1)] public DateTimeOffset At { get; set; }
}
