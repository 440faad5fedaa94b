using System.Collections.ObjectModel;
using System.Reflection;
using System.Runtime.CompilerServices;

namespace CacheSerializer.Protobuf.Internal;

internal enum CollectionKind
{
    Array,
    Sequence,
    Map,
}

/// <summary>How a collection type is written and created: the analysis of collection members, apart from their codecs.</summary>
/// <param name="Kind">Array, sequence (list, set, collection interface) or map.</param>
/// <param name="ElementType">The element type, or the key type of a map.</param>
/// <param name="ValueType">The value type of a map; null otherwise.</param>
/// <param name="ConcreteType">The type a read creates when the member is null (List for IList, Dictionary for IDictionary...).</param>
internal sealed record CollectionShape(CollectionKind Kind, Type ElementType, Type? ValueType, Type ConcreteType)
{
    private static readonly Type[] s_listInterfaces =
    [
        typeof(IEnumerable<>), typeof(ICollection<>), typeof(IList<>), typeof(IReadOnlyCollection<>), typeof(IReadOnlyList<>),
    ];

    private static readonly Type[] s_setInterfaces = [typeof(ISet<>), typeof(IReadOnlySet<>)];

    // BCL collection bases whose subclasses protobuf-net treats as plain lists (dropping their extra members).
    private static readonly Type[] s_collectionBases =
    [
        typeof(List<>), typeof(Collection<>), typeof(ReadOnlyCollection<>), typeof(HashSet<>), typeof(Dictionary<,>),
        typeof(SortedDictionary<,>), typeof(SortedSet<>), typeof(LinkedList<>), typeof(Queue<>), typeof(Stack<>),
    ];

    /// <summary>Returns the shape of a collection type, null for a non-collection; throws for a collection subclass with members.</summary>
    public static CollectionShape? Classify(Type type)
    {
        if (type == typeof(string) || type == typeof(byte[]))
        {
            return null;
        }

        if (type.IsArray)
        {
            return type.GetArrayRank() == 1 ? new CollectionShape(CollectionKind.Array, type.GetElementType()!, null, type) : null;
        }

        if (type.IsGenericType)
        {
            var definition = type.GetGenericTypeDefinition();
            var args = type.GetGenericArguments();
            if (definition == typeof(Dictionary<,>) || definition == typeof(IDictionary<,>) || definition == typeof(IReadOnlyDictionary<,>))
            {
                return new CollectionShape(CollectionKind.Map, args[0], args[1], typeof(Dictionary<,>).MakeGenericType(args));
            }

            if (definition == typeof(List<>) || Array.IndexOf(s_listInterfaces, definition) >= 0)
            {
                return new CollectionShape(CollectionKind.Sequence, args[0], null, typeof(List<>).MakeGenericType(args));
            }

            if (definition == typeof(HashSet<>) || Array.IndexOf(s_setInterfaces, definition) >= 0)
            {
                return new CollectionShape(CollectionKind.Sequence, args[0], null, typeof(HashSet<>).MakeGenericType(args));
            }
        }

        CheckSubclassMembers(type);
        if (type.IsAbstract || type.IsInterface || type.GetConstructor(Type.EmptyTypes) is null)
        {
            return FindInterface(type, typeof(IEnumerable<>)) is { } enumerable
                ? new CollectionShape(CollectionKind.Sequence, enumerable.GetGenericArguments()[0], null, type)
                : null;
        }

        if (FindInterface(type, typeof(IDictionary<,>)) is { } dictionary)
        {
            var args = dictionary.GetGenericArguments();
            return new CollectionShape(CollectionKind.Map, args[0], args[1], type);
        }

        return FindInterface(type, typeof(ICollection<>)) is { } collection
            ? new CollectionShape(CollectionKind.Sequence, collection.GetGenericArguments()[0], null, type)
            : null;
    }

    /// <summary>Returns whether a collection of this type cannot be created by a read (no constructor): only filled in place.</summary>
    public bool CannotCreate => ConcreteType.IsAbstract || ConcreteType.IsInterface
        || (!ConcreteType.IsArray && ConcreteType.GetConstructor(Type.EmptyTypes) is null);

    private static void CheckSubclassMembers(Type type)
    {
        var members = new List<string>();
        for (var level = type; level is not null && level != typeof(object); level = level.BaseType)
        {
            if (level.IsGenericType && Array.IndexOf(s_collectionBases, level.GetGenericTypeDefinition()) >= 0)
            {
                if (members.Count > 0)
                {
                    ThrowHelper.ThrowCollectionSubclass(type, members);
                }

                return;
            }

            foreach (var member in level.GetMembers(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly))
            {
                bool data = member switch
                {
                    FieldInfo f => !f.IsDefined(typeof(CompilerGeneratedAttribute)),
                    PropertyInfo p => p.GetIndexParameters().Length == 0,
                    _ => false,
                };
                if (data)
                {
                    members.Add(member.Name);
                }
            }
        }
    }

    private static Type? FindInterface(Type type, Type definition)
    {
        foreach (var candidate in type.GetInterfaces())
        {
            if (candidate.IsGenericType && candidate.GetGenericTypeDefinition() == definition)
            {
                return candidate;
            }
        }

        return null;
    }
}
