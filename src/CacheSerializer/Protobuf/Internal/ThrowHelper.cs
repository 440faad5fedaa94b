using System.Diagnostics.CodeAnalysis;
using Google.Protobuf;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>Every error text of the engine, in one place: each names the type, the member or number, and the fix.</summary>
internal static class ThrowHelper
{
    [DoesNotReturn]
    public static void ThrowTooDeep(Type type) => throw new ProtoException(
        $"The object graph is deeper than {ProtoModel.MaxDepth} nested messages at type {Name(type)}, or it contains a cycle " +
        "(an object that refers back to one of its parents). protobuf stores trees: break the cycle, or flatten the graph.");

    [DoesNotReturn]
    public static T ThrowUndeclaredSubtype<T>(Type contract, Type runtimeType) => throw new ProtoException(
        $"Cannot serialize an instance of {Name(runtimeType)} as {Name(contract)}: {Name(runtimeType)} derives from the contract " +
        $"{Name(contract)} but is not declared as one of its subtypes, and writing it as {Name(contract)} would drop its own members. " +
        $"Declare it with [ProtoInclude(<field number>, typeof({runtimeType.Name}))] on {contract.Name}, or at start-up call " +
        $"model.AddSubType(typeof({contract.Name}), <field number>, typeof({runtimeType.Name})).");

    [DoesNotReturn]
    public static void ThrowUndeclaredSubtype(Type contract, Type runtimeType) => ThrowUndeclaredSubtype<object>(contract, runtimeType);

    [DoesNotReturn]
    public static T ThrowWrongSubtype<T>(Type expected, Type actual) => throw new ProtoException(
        $"The payload holds a {Name(actual)}, which is not a {Name(expected)}: deserialize it as {Name(actual)} or one of its base types.");

    [DoesNotReturn]
    public static void ThrowCannotCreate(Type type) => throw new ProtoException(
        $"Cannot create an instance of {Name(type)}: it is abstract or an interface and the payload names none of its " +
        "[ProtoInclude] subtypes before its fields. The payload was written for another model, or is damaged.");

    [DoesNotReturn]
    public static void ThrowDuplicateFieldNumber(Type type, int fieldNumber, string first, string second) => throw new ProtoException(
        $"Type {Name(type)} uses field number {fieldNumber} twice ({first} and {second}). Each member and each [ProtoInclude] of a " +
        "type needs its own field number: renumber one of them.");

    [DoesNotReturn]
    public static void ThrowInvalidFieldNumber(Type type, string member, int fieldNumber) => throw new ProtoException(
        $"{Name(type)}.{member} has field number {fieldNumber}; protobuf field numbers run from 1 to 536,870,911, " +
        "excluding the reserved 19,000-19,999. Choose another number.");

    [DoesNotReturn]
    public static void ThrowInvalidInclude(Type type, Type derived) => throw new ProtoException(
        $"[ProtoInclude] on {Name(type)} names {Name(derived)}, which does not derive from {Name(type)}. Name a derived class.");

    /// <summary>Whether a message already names this member (or, for a root, the root type), so it is not wrapped again.</summary>
    public static bool IsAboutMember(string message, Type type, string member, Type memberType) =>
        message.StartsWith(IsRootBox(type) ? Name(memberType) + " is not a type" : Name(type) + "." + member, StringComparison.Ordinal);

    private static bool IsRootBox(Type type) => type.IsGenericType && type.GetGenericTypeDefinition() == typeof(RootBox<>);

    [DoesNotReturn]
    public static void ThrowUnsupportedMember(Type type, string member, Type memberType, Exception? inner) => throw new ProtoException(
        // A root that is not a contract is compiled as the member of an internal wrapper: name the root, not the wrapper.
        (IsRootBox(type)
            ? $"{Name(memberType)} is not a type this model can serialize"
            : $"{Name(type)}.{member} has type {Name(memberType)}, which this model cannot serialize") +
        (inner is null ? ". " : $": {inner.Message} ") +
        "Mark it [ProtoIgnore], annotate its type with [ProtoContract], or register a surrogate with model.AddSurrogate.",
        inner);

    [DoesNotReturn]
    public static void ThrowNotSettable(Type type, string member) => throw new ProtoException(
        $"{Name(type)}.{member} cannot be assigned (a get-only property or a readonly field that is not a collection). " +
        "Give it a setter (private and init setters work) or make the field writable.");

    [DoesNotReturn]
    public static void ThrowMissingOrder(Type type, string member) => throw new ProtoException(
        $"{Name(type)}.{member} is a [DataMember] without a positive Order, so it has no field number. Set [DataMember(Order = n)].");

    [DoesNotReturn]
    public static void ThrowNotAContract(Type type) => throw new ProtoException(
        $"Type {Name(type)} is not a protobuf contract: annotate it with [ProtoContract] and [ProtoMember(n)] (or [DataContract] " +
        "and [DataMember(Order = n)]), or configure it at start-up with model.Add(typeof(" + type.Name + "), ...).");

    [DoesNotReturn]
    public static void ThrowCollectionSubclass(Type type, IEnumerable<string> members) => throw new ProtoException(
        $"Type {Name(type)} is a collection that adds members of its own ({string.Join(", ", members)}); protobuf stores only the " +
        "elements of a collection, so these members would be lost. Move them to a contract that holds the list as a member.");

    [DoesNotReturn]
    public static void ThrowNullElement(string owner, string member) => throw new ProtoException(
        $"{owner}.{member} contains a null element; protobuf repeated fields cannot carry nulls. Remove the nulls before caching.");

    [DoesNotReturn]
    public static void ThrowGetOnlyCollectionNull(string owner, string member) => throw new ProtoException(
        $"{owner}.{member} is a get-only collection that is null after construction, so there is nothing to fill. " +
        "Initialize it in the constructor or give it a setter.");

    [DoesNotReturn]
    public static T ThrowCannotAdd<T>(string owner, string member, Type collectionType) => throw new ProtoException(
        $"{owner}.{member} holds a {Name(collectionType)}, which cannot be added to. Use a List, HashSet or Dictionary, or give it a setter.");

    [DoesNotReturn]
    public static void ThrowInvalidWireType(uint tag) => throw new ProtoException(
        $"The payload is malformed: tag {tag} (field {WireFormat.GetTagFieldNumber(tag)}) has wire type " +
        $"{(int)WireFormat.GetTagWireType(tag)}, which cannot start a field.");

    [DoesNotReturn]
    public static void ThrowBadPayload(string detail) => throw new ProtoException($"The payload is malformed: {detail}.");

    [DoesNotReturn]
    public static T ThrowBadPayload<T>(Type type, Exception inner) => throw new ProtoException(
        $"The payload cannot be read as {Name(type)}: it is malformed, truncated, or was written for another contract ({inner.Message}).",
        inner);

    [DoesNotReturn]
    public static void ThrowFrozen() => throw new InvalidOperationException(
        "This ProtoModel is already in use (a type was serialized, deserialized or checked), so its configuration is frozen. " +
        "Configure the model completely at start-up, before its first use.");

    [DoesNotReturn]
    public static void ThrowSurrogate(Type type, Type surrogate) => throw new ProtoException(
        $"Surrogate {Name(surrogate)} for {Name(type)} needs conversion operators both ways (implicit or explicit, declared on either " +
        "type) and must itself be a contract.");

    public static string Name(Type type)
    {
        if (!type.IsGenericType)
        {
            return type.FullName ?? type.Name;
        }

        string name = type.GetGenericTypeDefinition().FullName ?? type.Name;
        int tick = name.IndexOf('`', StringComparison.Ordinal);
        return $"{(tick < 0 ? name : name[..tick])}<{string.Join(", ", type.GetGenericArguments().Select(Name))}>";
    }
}
