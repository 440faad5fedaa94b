using System.Collections;
using System.Reflection;
using ProtoBuf;
using ProtoBuf.Meta;

namespace CacheSerializer.Transcoding.ProtobufNet;

/// <summary>How protobuf-net sees a type: a contract (a message of members), a collection (repeated field or map), or neither.</summary>
internal static class ContractTypes
{
    public const BindingFlags Instance = BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic;

    // A type protobuf-net writes as a message of members. The attributes are read first: protobuf-net answers false to
    // CanSerializeContractType for a contract it cannot build (a duplicate field number), which the guards must name.
    public static bool IsContract(RuntimeTypeModel runtime, Type type) =>
        !type.IsPrimitive
        && !type.IsEnum
        && !IsCollection(runtime, type)
        && (runtime.IsDefined(type)
            || type.IsDefined(typeof(ProtoContractAttribute), inherit: false)
            || type.IsDefined(typeof(System.Runtime.Serialization.DataContractAttribute), inherit: false)
            || (runtime.CanSerializeContractType(type) && !runtime.CanSerializeBasicType(type)));

    // protobuf-net writes anything enumerable as a repeated field (or a map) unless the type opts out with IgnoreListHandling.
    public static bool IsCollection(RuntimeTypeModel? runtime, Type type) =>
        type != typeof(string)
        && type != typeof(byte[])
        && typeof(IEnumerable).IsAssignableFrom(type)
        && type.GetCustomAttribute<ProtoContractAttribute>(inherit: false) is not { IgnoreListHandling: true }
        && !(runtime is not null && runtime.IsDefined(type) && runtime[type].IgnoreListHandling);

    /// <summary>The item type of a collection: its element, or KeyValuePair&lt;K, V&gt; of a dictionary.</summary>
    public static Type? ItemType(Type collection) =>
        collection.IsArray
            ? collection.GetElementType()
            : collection.GetInterfaces().Append(collection)
                .Where(candidate => candidate.IsGenericType && candidate.GetGenericTypeDefinition() == typeof(IEnumerable<>))
                .Select(enumerable => enumerable.GetGenericArguments()[0])
                .FirstOrDefault();

    /// <summary>The types a collection holds: its element types, or a dictionary's key and value types.</summary>
    public static IEnumerable<Type> ElementTypes(Type type)
    {
        if (type.IsArray)
        {
            return [type.GetElementType()!];
        }

        // IEnumerable<T> of a list, KeyValuePair<K, V> of a dictionary: the pair's arguments are visited in turn.
        return type.GetInterfaces().Append(type)
            .Where(candidate => candidate.IsGenericType && candidate.GetGenericTypeDefinition() == typeof(IEnumerable<>))
            .Select(enumerable => enumerable.GetGenericArguments()[0])
            .SelectMany(item => IsPair(item) ? item.GetGenericArguments() : [item]);
    }

    public static bool IsPair(Type type) => type.IsGenericType && type.GetGenericTypeDefinition() == typeof(KeyValuePair<,>);

    /// <summary>The root of <paramref name="meta"/>'s inheritance family (itself when it has no base contract).</summary>
    public static MetaType FamilyRoot(MetaType meta)
    {
        while (meta.BaseType is { } parent)
        {
            meta = parent;
        }

        return meta;
    }
}
