using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.Serialization;

namespace CacheSerializer.Protobuf.Internal;

/// <summary>
/// Builds and validates a <see cref="ContractPlan"/> from attributes and model configuration: every contract rule is
/// checked here, once per type (field numbers, duplicates across members and includes, subtype declarations).
/// </summary>
/// <remarks>
/// Three attribute vocabularies are read: ours (<see cref="ProtoContractAttribute"/> and friends), protobuf-net's own
/// <c>ProtoBuf.*Attribute</c> matched by full name through <see cref="CustomAttributeData"/> (no reference to protobuf-net),
/// and <c>[DataContract]</c>/<c>[DataMember(Order = n)]</c>, as protobuf-net reads them.
/// </remarks>
internal static class PlanBuilder
{
    private const string PnContract = "ProtoBuf.ProtoContractAttribute";
    private const string PnMember = "ProtoBuf.ProtoMemberAttribute";
    private const string PnInclude = "ProtoBuf.ProtoIncludeAttribute";
    private const string PnIgnore = "ProtoBuf.ProtoIgnoreAttribute";
    private const string PnAfterDeserialization = "ProtoBuf.ProtoAfterDeserializationAttribute";
    private const int MaxFieldNumber = (1 << 29) - 1;

    private const BindingFlags Declared =
        BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly;

    /// <summary>Returns whether <paramref name="type"/> is a contract of this model (annotated or configured).</summary>
    public static bool IsContract(Type type, ModelOptions options)
    {
        if (type.IsPrimitive || type.IsEnum || type.IsArray || type.IsPointer || type.IsGenericTypeDefinition || type == typeof(string))
        {
            return false;
        }

        return options.Types.ContainsKey(type)
            || type.IsDefined(typeof(ProtoContractAttribute), inherit: false)
            || HasAttribute(type.GetCustomAttributesData(), PnContract) is not null
            || type.IsDefined(typeof(DataContractAttribute), inherit: false);
    }

    /// <summary>Builds the plan of a contract type; throws <see cref="ProtoException"/> naming the rule it breaks.</summary>
    public static ContractPlan Build(Type type, ModelOptions options)
    {
        var typeAttributes = type.GetCustomAttributesData();
        bool skipConstructor = type.GetCustomAttribute<ProtoContractAttribute>()?.SkipConstructor
            ?? NamedBool(HasAttribute(typeAttributes, PnContract), "SkipConstructor");

        var includes = ReadIncludes(type, typeAttributes, options);
        var members = ReadMembers(type, options);
        Validate(type, members, includes);

        return new ContractPlan(
            type,
            FindBaseContract(type, options),
            members.OrderBy(m => m.FieldNumber).ToArray(),
            includes.OrderBy(i => i.FieldNumber).ToArray(),
            skipConstructor,
            ReadCallbacks(type));
    }

    /// <summary>Returns the nearest base class that is a contract, checking that it declares <paramref name="type"/> as a subtype.</summary>
    public static Type? FindBaseContract(Type type, ModelOptions options)
    {
        for (var current = type.BaseType; current is not null && current != typeof(object); current = current.BaseType)
        {
            if (!IsContract(current, options))
            {
                continue;
            }

            foreach (var include in ReadIncludes(current, current.GetCustomAttributesData(), options))
            {
                if (include.DerivedType == type)
                {
                    return current;
                }
            }

            // A contract's subclass that its base does not declare would be written without the base's members (or the
            // base's reader would never know it): refuse rather than store it lossy.
            ThrowHelper.ThrowUndeclaredSubtype(current, type);
        }

        return null;
    }

    private static List<IncludePlan> ReadIncludes(Type type, IList<CustomAttributeData> typeAttributes, ModelOptions options)
    {
        var includes = new List<IncludePlan>();
        foreach (var attribute in type.GetCustomAttributes<ProtoIncludeAttribute>(inherit: false))
        {
            includes.Add(new IncludePlan(attribute.Tag, attribute.KnownType));
        }

        foreach (var data in typeAttributes)
        {
            if (data.AttributeType.FullName != PnInclude || data.ConstructorArguments.Count != 2)
            {
                continue;
            }

            int tag = (int)data.ConstructorArguments[0].Value!;
            var known = data.ConstructorArguments[1].Value switch
            {
                Type t => t,

                // protobuf-net's (int, string) overload names the subtype in source code, never in a payload.
                string name => type.Assembly.GetType(name) ?? Type.GetType(name),
                _ => null,
            };
            if (known is not null)
            {
                includes.Add(new IncludePlan(tag, known));
            }
        }

        if (options.SubTypes.TryGetValue(type, out var configured))
        {
            includes.AddRange(configured);
        }

        foreach (var include in includes)
        {
            if (!include.DerivedType.IsSubclassOf(type))
            {
                ThrowHelper.ThrowInvalidInclude(type, include.DerivedType);
            }

            if (include.FieldNumber is < 1 or > MaxFieldNumber or (>= 19000 and <= 19999))
            {
                ThrowHelper.ThrowInvalidFieldNumber(type, $"[ProtoInclude({include.FieldNumber}, typeof({include.DerivedType.Name}))]", include.FieldNumber);
            }
        }

        return includes;
    }

    private static List<MemberPlan> ReadMembers(Type type, ModelOptions options)
    {
        var members = new List<MemberPlan>();
        options.Types.TryGetValue(type, out var configured);
        bool dataContract = type.IsDefined(typeof(DataContractAttribute), inherit: false);

        // The type's own members, plus those of base classes that are not contracts themselves (a contract base writes its own).
        for (var level = type; level is not null && level != typeof(object); level = level.BaseType)
        {
            if (level != type && IsContract(level, options))
            {
                break;
            }

            foreach (var member in level.GetMembers(Declared))
            {
                if (member is not (FieldInfo or PropertyInfo) || member.IsDefined(typeof(CompilerGeneratedAttribute)))
                {
                    continue;
                }

                if (member is PropertyInfo { GetMethod: null } || (member is PropertyInfo p && p.GetIndexParameters().Length > 0))
                {
                    continue;
                }

                var plan = configured is not null
                    ? FromConfiguration(member, configured)
                    : FromAttributes(type, member, dataContract);
                if (plan is not null)
                {
                    members.Add(plan);
                }
            }
        }

        if (configured is not null)
        {
            foreach (var name in configured.Keys)
            {
                if (!members.Exists(m => m.Name == name))
                {
                    throw new ProtoException($"Type {ThrowHelper.Name(type)} was configured with member '{name}', which it does not declare.");
                }
            }
        }

        return members;
    }

    private static MemberPlan? FromConfiguration(MemberInfo member, Dictionary<string, int> configured)
        => configured.TryGetValue(member.Name, out int field) ? Create(member, field, isPacked: false, overwrite: false) : null;

    private static MemberPlan? FromAttributes(Type type, MemberInfo member, bool dataContract)
    {
        var data = member.GetCustomAttributesData();
        if (member.IsDefined(typeof(ProtoIgnoreAttribute)) || HasAttribute(data, PnIgnore) is not null)
        {
            return null;
        }

        var ours = member.GetCustomAttribute<ProtoMemberAttribute>();
        if (ours is not null)
        {
            return Create(member, ours.Tag, ours.IsPacked, ours.OverwriteList);
        }

        var theirs = HasAttribute(data, PnMember);
        if (theirs is not null && theirs.ConstructorArguments.Count >= 1 && theirs.ConstructorArguments[0].Value is int tag)
        {
            return Create(member, tag, NamedBool(theirs, "IsPacked"), NamedBool(theirs, "OverwriteList"));
        }

        if (dataContract && member.GetCustomAttribute<DataMemberAttribute>() is { } dataMember
            && !member.IsDefined(typeof(IgnoreDataMemberAttribute)))
        {
            if (dataMember.Order < 1)
            {
                ThrowHelper.ThrowMissingOrder(type, member.Name);
            }

            return Create(member, dataMember.Order, isPacked: false, overwrite: false);
        }

        return null;
    }

    private static MemberPlan Create(MemberInfo member, int field, bool isPacked, bool overwrite)
    {
        var (memberType, canWrite) = member switch
        {
            FieldInfo f => (f.FieldType, !f.IsInitOnly),
            PropertyInfo p => (p.PropertyType, p.SetMethod is not null),
            _ => throw new InvalidOperationException(),
        };
        return new MemberPlan(member, field, memberType, isPacked, overwrite, canWrite);
    }

    private static void Validate(Type type, List<MemberPlan> members, List<IncludePlan> includes)
    {
        var used = new Dictionary<int, string>();
        foreach (var member in members)
        {
            if (member.FieldNumber is < 1 or > MaxFieldNumber or (>= 19000 and <= 19999))
            {
                ThrowHelper.ThrowInvalidFieldNumber(type, member.Name, member.FieldNumber);
            }

            if (!used.TryAdd(member.FieldNumber, member.Name))
            {
                ThrowHelper.ThrowDuplicateFieldNumber(type, member.FieldNumber, used[member.FieldNumber], member.Name);
            }
        }

        foreach (var include in includes)
        {
            string what = $"[ProtoInclude({include.FieldNumber}, typeof({include.DerivedType.Name}))]";
            if (!used.TryAdd(include.FieldNumber, what))
            {
                ThrowHelper.ThrowDuplicateFieldNumber(type, include.FieldNumber, used[include.FieldNumber], what);
            }
        }
    }

    private static List<MethodInfo> ReadCallbacks(Type type)
    {
        var callbacks = new List<MethodInfo>();
        foreach (var method in type.GetMethods(Declared))
        {
            if (method.IsDefined(typeof(OnDeserializedAttribute)) || HasAttribute(method.GetCustomAttributesData(), PnAfterDeserialization) is not null)
            {
                callbacks.Add(method);
            }
        }

        return callbacks;
    }

    private static CustomAttributeData? HasAttribute(IList<CustomAttributeData> attributes, string fullName)
    {
        foreach (var data in attributes)
        {
            if (data.AttributeType.FullName == fullName)
            {
                return data;
            }
        }

        return null;
    }

    private static bool NamedBool(CustomAttributeData? data, string name)
    {
        if (data is null)
        {
            return false;
        }

        foreach (var argument in data.NamedArguments)
        {
            if (argument.MemberName == name && argument.TypedValue.Value is bool value)
            {
                return value;
            }
        }

        return false;
    }
}
