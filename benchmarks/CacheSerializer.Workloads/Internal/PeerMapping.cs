using System.Collections;
using System.Collections.Concurrent;
using System.Reflection;
using CacheSerializer.Workloads.Models;
using CacheSerializer.Workloads.Peers;

namespace CacheSerializer.Workloads.Internal;

/// <summary>Maps a workload type to its peer model class and back by one rule, the same in both directions.</summary>
/// <remarks>
/// A class <c>X</c> of <see cref="Models"/> has its peer <c>XPeer</c> in <see cref="Peers"/>, with a member of the same name
/// for each of its members. A member holds either the same type on both sides (numbers, strings, Guids, instants with their
/// kind, versions, the models' enums), copied as it is; a class of the other side, mapped by its runtime type (a
/// <see cref="FolderNode"/> held as a <see cref="NodeBase"/> becomes a <see cref="FolderNodePeer"/>); or a list of either,
/// mapped to a new list (null stays null, empty stays empty). A type whose members do not pair up this way throws at its
/// first mapping, naming the member, so a member added to one side only cannot be dropped without a word.
/// </remarks>
internal static class PeerMapping
{
    private const string PeerSuffix = "Peer";

    private static readonly ConcurrentDictionary<Type, TypeMap> Maps = new();

    /// <summary>Maps a model to its peer model or a peer model to its model.</summary>
    /// <typeparam name="TTarget">The counterpart type of <paramref name="source"/>'s type.</typeparam>
    /// <param name="source">The value to map.</param>
    /// <returns>A new graph equal to <paramref name="source"/> member for member.</returns>
    public static TTarget Map<TTarget>(object source)
        where TTarget : class =>
        (TTarget)MapObject(source);

    private static object MapObject(object source)
    {
        TypeMap map = Maps.GetOrAdd(source.GetType(), TypeMap.For);
        object target = Activator.CreateInstance(map.Target)!;
        foreach ((PropertyInfo from, PropertyInfo to) in map.Members)
        {
            to.SetValue(target, MapValue(from.GetValue(source), to.PropertyType));
        }

        return target;
    }

    private static object? MapValue(object? value, Type targetType)
    {
        if (value is null || !IsMapped(value.GetType()))
        {
            return value;
        }

        if (value is not IList list)
        {
            return MapObject(value);
        }

        var mapped = (IList)Activator.CreateInstance(targetType, list.Count)!;
        Type elementType = targetType.GetGenericArguments()[0];
        foreach (object? element in list)
        {
            mapped.Add(MapValue(element, elementType));
        }

        return mapped;
    }

    /// <summary>Whether values of the type are mapped (a class of either side, or a list) rather than copied.</summary>
    private static bool IsMapped(Type type) =>
        IsList(type) || (type.IsClass && (type.Namespace == typeof(RpcMessage).Namespace || type.Namespace == typeof(RpcMessagePeer).Namespace));

    private static bool IsList(Type type) => type.IsGenericType && type.GetGenericTypeDefinition() == typeof(List<>);

    /// <summary>The type a member of type <paramref name="type"/> must have on the other side.</summary>
    private static Type Counterpart(Type type)
    {
        if (!IsMapped(type))
        {
            return type;
        }

        if (IsList(type))
        {
            return typeof(List<>).MakeGenericType(Counterpart(type.GetGenericArguments()[0]));
        }

        bool isPeer = type.Namespace == typeof(RpcMessagePeer).Namespace;
        string name = isPeer
            ? $"{typeof(RpcMessage).Namespace}.{type.Name[..^PeerSuffix.Length]}"
            : $"{typeof(RpcMessagePeer).Namespace}.{type.Name}{PeerSuffix}";
        return type.Assembly.GetType(name)
            ?? throw new InvalidOperationException($"{type} has no counterpart: {name} does not exist.");
    }

    /// <summary>A class's counterpart and its members paired by name, checked once per class.</summary>
    private sealed record TypeMap(Type Target, (PropertyInfo From, PropertyInfo To)[] Members)
    {
        public static TypeMap For(Type source)
        {
            Type target = Counterpart(source);
            PropertyInfo[] sourceMembers = ReadWriteProperties(source);
            PropertyInfo[] targetMembers = ReadWriteProperties(target);
            var pairs = new (PropertyInfo From, PropertyInfo To)[sourceMembers.Length];
            for (int i = 0; i < sourceMembers.Length; i++)
            {
                PropertyInfo from = sourceMembers[i];
                PropertyInfo to = Array.Find(targetMembers, m => m.Name == from.Name)
                    ?? throw new InvalidOperationException($"{source}.{from.Name} has no member of that name in {target}.");
                if (to.PropertyType != Counterpart(from.PropertyType))
                {
                    throw new InvalidOperationException($"{source}.{from.Name} is a {from.PropertyType}, so {target}.{to.Name} must be a {Counterpart(from.PropertyType)}, not a {to.PropertyType}.");
                }

                pairs[i] = (from, to);
            }

            if (targetMembers.Length != sourceMembers.Length)
            {
                PropertyInfo extra = targetMembers.First(m => Array.TrueForAll(sourceMembers, s => s.Name != m.Name));
                throw new InvalidOperationException($"{target}.{extra.Name} has no member of that name in {source}.");
            }

            return new TypeMap(target, pairs);
        }

        private static PropertyInfo[] ReadWriteProperties(Type type) =>
            type.GetProperties(BindingFlags.Public | BindingFlags.Instance).Where(p => p.CanRead && p.CanWrite).ToArray();
    }
}
