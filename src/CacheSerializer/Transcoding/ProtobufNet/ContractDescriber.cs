using System.Globalization;
using System.Text;
using ProtoBuf;
using ProtoBuf.Meta;
using static CacheSerializer.Transcoding.ProtobufNet.ContractTypes;

namespace CacheSerializer.Transcoding.ProtobufNet;

/// <summary>
/// Writes the canonical description of a stored type's contract: every fact of the model that decides the bytes of its
/// bodies, and nothing else (docs/format.md, "Contract fingerprint"). Two builds whose descriptions are equal write and
/// read each other's bodies alike; its hash is the fingerprint an object item carries.
/// </summary>
/// <remarks>
/// Messages are numbered in the order they are first reached (members by field number, includes by number), never named:
/// renaming a class or a member changes no byte, so it changes no description. Framework types are named by their full
/// name (System.Int32), which is what decides their layout. A member typed as a contract refers to its message by number;
/// its whole inheritance family is described, since the value may be any of it. The stored type itself is described with
/// its bases (its item is always exactly that type): a subtype added to or removed from it leaves its items readable.
/// </remarks>
internal sealed class ContractDescriber
{
    /// <summary>The first line of every description: bump it when the description's own format changes (every fingerprint changes with it).</summary>
    public const string Version = "protobuf-net contract 1";

    private readonly RuntimeTypeModel _model;

    // A message's number by its type and whether it is described whole (a member's family: every include) or as a link
    // of the stored type's chain (only the include leading down to the stored type; none on the stored type itself).
    private readonly Dictionary<(Type Type, bool Whole), int> _numbers = [];
    private readonly Queue<(MetaType Meta, bool Whole, MetaType? Next)> _pending = new();
    private readonly StringBuilder _text = new();

    private ContractDescriber(RuntimeTypeModel model) => _model = model;

    /// <summary>Describes the contract of <paramref name="type"/>'s items (call after the guards accepted the type).</summary>
    public static string Describe(RuntimeTypeModel model, Type type) => new ContractDescriber(model).DescribeRoot(type);

    private string DescribeRoot(Type type)
    {
        _text.Append(Version).Append('\n');
        _text.Append("model parseable=").Append(_model.AllowParseableTypes ? "protobuf-net" : ProtobufNetModel.IsOwn(_model) ? "transcoder" : "off")
            .Append(" datetime-kind=").Append(OnOff(_model.IncludeDateTimeKind))
            .Append(" implicit-zero-defaults=").Append(OnOff(_model.UseImplicitZeroDefaults))
            .Append('\n');

        string root;
        if (!IsCollection(_model, type) && IsContract(_model, type) && ModelInternals.SurrogateOf(_model[type]) is null)
        {
            // The item's own type: protobuf-net writes it from the root of its family down, each base with the include
            // leading to the next level; the type itself has no include to follow (an item of a subtype names the subtype).
            var chain = new Stack<MetaType>();
            for (MetaType? level = _model[type]; level is not null; level = level.BaseType)
            {
                chain.Push(level);
            }

            root = "#" + Number(chain.Peek(), whole: false);
            while (chain.TryPop(out MetaType? level))
            {
                MetaType? next = chain.TryPeek(out MetaType? below) ? below : null;
                _pending.Enqueue((level, false, next));
            }
        }
        else
        {
            root = Describe(type, DataFormat.Default);
        }

        _text.Append("root ").Append(root).Append('\n');
        var written = new HashSet<(Type, bool)>();
        while (_pending.TryDequeue(out (MetaType Meta, bool Whole, MetaType? Next) entry))
        {
            if (written.Add((entry.Meta.Type, entry.Whole)))
            {
                WriteMessage(entry.Meta, entry.Whole, entry.Next);
            }
        }

        return _text.ToString();
    }

    // One message: "#n [group] {", a line per member by field number, a line per include by number, "}".
    private void WriteMessage(MetaType meta, bool whole, MetaType? next)
    {
        _text.Append('#').Append(Number(meta, whole)).Append(meta.IsGroup ? " group" : "").Append(" {\n");
        foreach (ValueMember member in meta.GetFields().OrderBy(member => member.FieldNumber))
        {
            _text.Append("  ").Append(member.FieldNumber).Append(": ").Append(DescribeMember(member)).Append('\n');
        }

        foreach (SubType subType in meta.GetSubtypes().OrderBy(subType => subType.FieldNumber))
        {
            if (!whole && subType.DerivedType != next)
            {
                continue;
            }

            MetaType derived = subType.DerivedType;
            _text.Append("  ").Append(subType.FieldNumber).Append(": include #").Append(Number(derived, whole)).Append('\n');
        }

        _text.Append("}\n");
    }

    private string DescribeMember(ValueMember member)
    {
        var text = new StringBuilder();
        if (member.IsMap && member.ItemType is { } pair && IsPair(pair))
        {
            Type[] arguments = pair.GetGenericArguments();
            text.Append("map(").Append(Describe(arguments[0], member.MapKeyFormat)).Append(", ").Append(Describe(arguments[1], member.MapValueFormat)).Append(')');
        }
        else if (member.ItemType is { } item)
        {
            text.Append("repeated(").Append(Describe(item, member.DataFormat)).Append(')');
        }
        else
        {
            text.Append(Describe(member.MemberType, member.DataFormat));
        }

        if (member.DataFormat != DataFormat.Default)
        {
            text.Append(" format=").Append(member.DataFormat);
        }

        if (member.CompatibilityLevel != CompatibilityLevel.NotSpecified)
        {
            text.Append(" compatibility=").Append((int)member.CompatibilityLevel);
        }

        if (member.DefaultValue is { } defaultValue)
        {
            text.Append(" default=").Append(Convert.ToString(defaultValue, CultureInfo.InvariantCulture));
        }

        Flag(text, member.IsPacked, "packed");
        Flag(text, member.IsRequired, "required");
        Flag(text, member.SupportNull, "support-null");
        Flag(text, member.AsReference, "as-reference");
        Flag(text, member.DynamicType, "dynamic-type");
        Flag(text, ModelInternals.Read(ModelInternals.NullWrappedCollection, member), "null-wrapped-collection");
        Flag(text, ModelInternals.Read(ModelInternals.NullWrappedCollectionGroup, member), "null-wrapped-collection-group");
        Flag(text, ModelInternals.Read(ModelInternals.NullWrappedValue, member), "null-wrapped-value");
        Flag(text, ModelInternals.Read(ModelInternals.NullWrappedValueGroup, member), "null-wrapped-value-group");
        return text.ToString();
    }

    // A type as a member, an item or a root holds it.
    private string Describe(Type type, DataFormat format)
    {
        if (Nullable.GetUnderlyingType(type) is { } underlying)
        {
            return Describe(underlying, format) + "?";
        }

        if (type.IsEnum)
        {
            return "enum(" + Enum.GetUnderlyingType(type).FullName + ")";
        }

        if (_model.IsDefined(type) && ModelInternals.SurrogateOf(_model[type]) is { } surrogate)
        {
            return "surrogate(" + Describe(surrogate, format) + ")";
        }

        if (type == typeof(byte[]) || type == typeof(string) || type.IsPrimitive)
        {
            return type.FullName!;
        }

        if (IsCollection(_model, type))
        {
            return ItemType(type) is { } item
                ? IsPair(item) ? $"map({Describe(item.GetGenericArguments()[0], format)}, {Describe(item.GetGenericArguments()[1], format)})" : $"repeated({Describe(item, format)})"
                : "repeated(System.Object)";
        }

        if (_model.CanSerializeBasicType(type))
        {
            // Framework types protobuf-net has a layout for (decimal, DateTime, Guid, Uri, ...), or parseable ones it writes as text.
            return _model.AllowParseableTypes && !_model.IsDefined(type) && type.GetMethod("Parse", [typeof(string)]) is not null && !IsBuiltIn(type)
                ? "parseable(" + type.FullName + ")"
                : type.FullName!;
        }

        if (IsContract(_model, type))
        {
            // A member's contract: its whole family, since the value may be any type of it.
            MetaType meta = _model[type];
            EnqueueFamily(FamilyRoot(meta));
            return "#" + Number(meta, whole: true);
        }

        return type.FullName ?? type.Name;
    }

    private void EnqueueFamily(MetaType root)
    {
        if (_numbers.ContainsKey((root.Type, true)))
        {
            return;
        }

        var family = new Queue<MetaType>([root]);
        while (family.TryDequeue(out MetaType? meta))
        {
            Number(meta, whole: true);
            _pending.Enqueue((meta, true, null));
            foreach (SubType subType in meta.GetSubtypes().OrderBy(subType => subType.FieldNumber))
            {
                family.Enqueue(subType.DerivedType);
            }
        }
    }

    // protobuf-net writes these by its own layout even with AllowParseableTypes (ValueMember.TryGetCoreSerializer's switch).
    private static bool IsBuiltIn(Type type) =>
        type == typeof(decimal) || type == typeof(DateTime) || type == typeof(TimeSpan) || type == typeof(Guid) || type == typeof(Uri)
        || type == typeof(DateOnly) || type == typeof(TimeOnly) || type == typeof(Type);

    private int Number(MetaType meta, bool whole)
    {
        if (!_numbers.TryGetValue((meta.Type, whole), out int number))
        {
            number = _numbers.Count;
            _numbers.Add((meta.Type, whole), number);
        }

        return number;
    }

    private static void Flag(StringBuilder text, bool on, string name)
    {
        if (on)
        {
            text.Append(' ').Append(name);
        }
    }

    private static string OnOff(bool on) => on ? "on" : "off";
}
