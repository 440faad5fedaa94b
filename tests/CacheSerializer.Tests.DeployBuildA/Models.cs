using System.ComponentModel;
using ProtoBuf;

// Build A of an application's cached models: what the servers not yet deployed run. Each type is one kind of change;
// its twin in CacheSerializer.Tests.DeployBuildB has the same full name (a type renamed in B is the exception).
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
    [ProtoMember(2)] public string? Title { get; set; }
}

[ProtoContract]
public class MemberAdded
{
    [ProtoMember(1)] public int Id { get; set; }
    [ProtoMember(2)] public string? Name { get; set; }
}

[ProtoContract]
public class MemberRemoved
{
    [ProtoMember(1)] public int Id { get; set; }
    [ProtoMember(2)] public string? Name { get; set; }
}

[ProtoContract]
public class MemberRetyped
{
    [ProtoMember(1)] public int Id { get; set; }
    [ProtoMember(2)] public string? Code { get; set; }
}

[ProtoContract]
public class DecimalToDouble
{
    [ProtoMember(1)] public decimal Price { get; set; }
}

[ProtoContract]
public class NestedRetyped
{
    [ProtoMember(1)] public NestedRetypedPart? Part { get; set; }
}

[ProtoContract]
public class NestedRetypedPart
{
    [ProtoMember(1)] public int Count { get; set; }
}

[ProtoContract]
public class StringToContract
{
    [ProtoMember(1)] public string? Address { get; set; }
}

[ProtoContract]
public class ListRetyped
{
    [ProtoMember(1)] public List<string>? Values { get; set; }
}

[ProtoContract]
public class DefaultChanged
{
    [ProtoMember(1), DefaultValue(5)] public int Level { get; set; } = 5;
}

[ProtoContract]
public class FormatChanged
{
    [ProtoMember(1, DataFormat = DataFormat.ZigZag)] public int Delta { get; set; }
}

[ProtoContract]
public class ParseableRetyped
{
    [ProtoMember(1)] public Version? Version { get; set; }
}

[ProtoContract]
public class TypeRenamedOld
{
    [ProtoMember(1)] public int Id { get; set; }
}

[ProtoContract, ProtoInclude(10, typeof(SubtypeRemovedSub))]
public class SubtypeRemovedBase
{
    [ProtoMember(1)] public int Id { get; set; }
}

[ProtoContract]
public class SubtypeRemovedSub : SubtypeRemovedBase
{
    [ProtoMember(1)] public string? Extra { get; set; }
}

[ProtoContract]
public class SubtypeAddedBase
{
    [ProtoMember(1)] public int Id { get; set; }
}

[ProtoContract]
public class WithDateTimeOffset
{
    [ProtoMember(1)] public DateTimeOffset At { get; set; }
}
