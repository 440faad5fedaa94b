using System.Reflection;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>What the engine knows about one contract type, before any code is compiled: the analysis half of the engine.</summary>
/// <param name="Type">The contract type.</param>
/// <param name="BaseContract">The contract this type is a <c>[ProtoInclude]</c> subtype of, or null for the root of a hierarchy.</param>
/// <param name="Members">The serialized members, in ascending field-number order.</param>
/// <param name="Includes">The direct subtypes, in ascending field-number order.</param>
/// <param name="SkipConstructor">Whether reads create instances without running a constructor.</param>
/// <param name="Callbacks">The <c>[OnDeserialized]</c> methods declared at this level.</param>
internal sealed record ContractPlan(
    Type Type,
    Type? BaseContract,
    IReadOnlyList<MemberPlan> Members,
    IReadOnlyList<IncludePlan> Includes,
    bool SkipConstructor,
    IReadOnlyList<MethodInfo> Callbacks);

/// <summary>One serialized field or property.</summary>
/// <param name="Member">The field or property.</param>
/// <param name="FieldNumber">The protobuf field number.</param>
/// <param name="MemberType">The declared type of the member.</param>
/// <param name="IsPacked">Whether a repeated numeric member is written packed.</param>
/// <param name="OverwriteList">Whether a read replaces the constructor's collection contents.</param>
/// <param name="CanWrite">Whether the member can be assigned (settable, private or init property, non-readonly field).</param>
internal sealed record MemberPlan(MemberInfo Member, int FieldNumber, Type MemberType, bool IsPacked, bool OverwriteList, bool CanWrite)
{
    public string Name => Member.Name;
}

/// <summary>One <c>[ProtoInclude]</c>: the direct subtype and the field number of its sub-message.</summary>
internal sealed record IncludePlan(int FieldNumber, Type DerivedType);
