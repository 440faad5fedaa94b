using System.Collections;
using System.Reflection;
using ProtoBuf.Meta;
using static CacheSerializer.Transcoding.ProtobufNet.ContractTypes;

namespace CacheSerializer.Transcoding.ProtobufNet;

/// <summary>
/// The guards (docs/protobuf-format.md, "Refused at Serialize"), run once per stored type at its first use over every
/// type its bodies can hold (members, items, subtypes, bases), each visited once. Each returns why protobuf-net would
/// store the type lossily, naming the type, the member and the fix. They only read the model, except on a model of
/// <see cref="ProtobufNetModel.Create"/>, where they give the parseable types they meet their string surrogates.
/// </summary>
internal sealed class ContractGuards(TypeModel model)
{
    private readonly HashSet<Type> _visited = [];

    public TranscoderException? CheckRoot(Type root)
    {
        var runtime = model as RuntimeTypeModel;
        if (runtime is not null)
        {
            ProtobufNetModel.ApplyParseable(runtime, root);
        }

        // Before CanSerialize: protobuf-net takes a contract's undeclared subtype for the contract itself.
        if (runtime is not null && !IsCollection(runtime, root) && UndeclaredSubtype(runtime, root, root) is { } undeclared)
        {
            return undeclared;
        }

        // Contracts before CanSerialize too: it says false for one protobuf-net cannot build, which the guards name.
        if (runtime is not null && (IsContract(runtime, root) || IsCollection(runtime, root)))
        {
            return Visit(runtime, root, root) ?? (model.CanSerialize(root) ? null : ThrowHelper.NoContract(root));
        }

        return model.CanSerialize(root) ? null : ThrowHelper.NoContract(root);
    }

    private TranscoderException? Visit(RuntimeTypeModel runtime, Type root, Type type)
    {
        type = Nullable.GetUnderlyingType(type) ?? type;
        if (!_visited.Add(type) || type.IsPrimitive || type.IsEnum || type == typeof(string) || type == typeof(object))
        {
            return null;
        }

        ProtobufNetModel.ApplyParseable(runtime, type);

        if (IsCollection(runtime, type))
        {
            return CollectionWithMembers(root, type) ?? VisitAll(runtime, root, ElementTypes(type));
        }

        if (!IsContract(runtime, type))
        {
            return null;
        }

        MetaType meta = runtime[type];
        return UndeclaredSubtype(runtime, root, type)
            ?? NumberClash(root, meta)
            ?? LossyText(runtime, root, meta)
            ?? PrefilledCollection(root, meta)
            ?? VisitAll(runtime, root, meta.GetFields().SelectMany(member => new[] { member.MemberType, member.ItemType }))
            ?? VisitAll(runtime, root, meta.GetSubtypes().Select(subType => subType.DerivedType.Type))
            ?? (meta.BaseType is { } parent ? Visit(runtime, root, parent.Type) : null);
    }

    private TranscoderException? VisitAll(RuntimeTypeModel runtime, Type root, IEnumerable<Type?> types)
    {
        foreach (Type? type in types)
        {
            if (type is not null && Visit(runtime, root, type) is { } reason)
            {
                return reason;
            }
        }

        return null;
    }

    // A contract whose base is a contract must be reachable from it through includes; otherwise protobuf-net writes
    // only the derived type's own members and reads the entry back as the base.
    private static TranscoderException? UndeclaredSubtype(RuntimeTypeModel runtime, Type root, Type type)
    {
        for (Type derived = type; derived.BaseType is { } parent && parent != typeof(object) && parent != typeof(ValueType); derived = parent)
        {
            if (!IsContract(runtime, parent))
            {
                continue;
            }

            MetaType meta = runtime[parent];
            if (!meta.GetSubtypes().Any(subType => subType.DerivedType.Type == derived))
            {
                return ThrowHelper.UndeclaredSubtype(root, derived, parent, FreeNumber(meta));
            }
        }

        return null;
    }

    private static TranscoderException? NumberClash(Type root, MetaType meta)
    {
        foreach (SubType subType in meta.GetSubtypes())
        {
            if (meta.GetFields().FirstOrDefault(member => member.FieldNumber == subType.FieldNumber) is { } member)
            {
                return ThrowHelper.IncludeNumberClash(root, meta.Type, subType.DerivedType.Type, member.Name, subType.FieldNumber, FreeNumber(meta));
            }
        }

        return null;
    }

    // protobuf-net checks AllowParseableTypes before anything else configured for a member's type, so a DateTimeOffset
    // member is written as DateTimeOffset.ToString() ("01/02/2020 03:04:05 +02:00", in the current culture) even when
    // the model has a surrogate for it: its sub-second part is lost, silently.
    private static TranscoderException? LossyText(RuntimeTypeModel runtime, Type root, MetaType meta)
    {
        if (!runtime.AllowParseableTypes)
        {
            return null;
        }

        foreach (ValueMember member in meta.GetFields())
        {
            Type type = Nullable.GetUnderlyingType(member.ItemType ?? member.MemberType) ?? member.ItemType ?? member.MemberType;
            if (type == typeof(DateTimeOffset))
            {
                return ThrowHelper.ParseableDateTimeOffset(root, meta.Type, member.Name);
            }
        }

        return null;
    }

    // protobuf-net adds what it reads to the collection a new instance already holds, and leaves it as it is when the
    // entry has none: a collection the constructor fills reads back with the constructor's items added, and an empty
    // or null one as the constructor's items (OverwriteList clears it only when an item arrives).
    private static TranscoderException? PrefilledCollection(Type root, MetaType meta)
    {
        if (meta.Type.IsAbstract || !meta.UseConstructor || meta.Type.GetConstructor(Instance, Type.EmptyTypes) is null)
        {
            return null;
        }

        object instance;
        try
        {
            instance = Activator.CreateInstance(meta.Type, nonPublic: true)!;
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            return null; // protobuf-net meets the same constructor when reading; the read-back check reports it then
        }

        foreach (ValueMember member in meta.GetFields())
        {
            if (member.ItemType is null)
            {
                continue;
            }

            object? filled = member.Member switch
            {
                PropertyInfo property when property.GetIndexParameters().Length == 0 => property.GetValue(instance),
                FieldInfo field => field.GetValue(instance),
                _ => null,
            };
            if (filled is IEnumerable items && items.GetEnumerator() is var enumerator && enumerator.MoveNext())
            {
                return ThrowHelper.PrefilledCollection(root, meta.Type, member.Name);
            }
        }

        return null;
    }

    // A collection type declared by the application that adds fields of its own: protobuf-net writes only its items.
    private static TranscoderException? CollectionWithMembers(Type root, Type type)
    {
        for (Type? level = type; level is not null && !IsFramework(level); level = level.BaseType)
        {
            FieldInfo[] own = level.GetFields(Instance | BindingFlags.DeclaredOnly);
            if (own.Length > 0)
            {
                return ThrowHelper.CollectionWithMembers(root, type, own.Select(MemberName));
            }
        }

        return null;
    }

    private static bool IsFramework(Type type) =>
        type.Assembly == typeof(object).Assembly || type.Assembly.GetName().Name is { } name && (name.StartsWith("System.", StringComparison.Ordinal) || name.StartsWith("Microsoft.", StringComparison.Ordinal));

    // An auto-property's backing field is "<Name>k__BackingField": report the property's name.
    private static string MemberName(FieldInfo field) =>
        field.Name.StartsWith('<') && field.Name.IndexOf('>', StringComparison.Ordinal) is > 1 and var end ? field.Name[1..end] : field.Name;

    // The lowest field number that none of the type's members and includes uses.
    private static int FreeNumber(MetaType meta)
    {
        var used = meta.GetFields().Select(member => member.FieldNumber).Concat(meta.GetSubtypes().Select(subType => subType.FieldNumber)).ToHashSet();
        int number = 1;
        while (used.Contains(number))
        {
            number++;
        }

        return number;
    }
}
