using System.Reflection;
using System.Runtime.CompilerServices;
using ProtoBuf.Meta;

namespace CacheSerializer.Transcoding.ProtobufNet;

/// <summary>
/// The protobuf-net model the transcoder builds for itself, and what it keeps configuring on it as types arrive: the
/// null-wrapped layout on every collection member, and the parseable types (Version, IPAddress, ...) written as text.
/// </summary>
internal static class ProtobufNetModel
{
    // The models CreateModel made: on these, the transcoder writes parseable types itself (see ApplyParseable).
    private static readonly ConditionalWeakTable<RuntimeTypeModel, object> OwnModels = [];

    /// <summary>
    /// Creates the model the transcoder owns when the application gives none: parseable types as text (Version,
    /// IPAddress, ...: what protobuf-net's <c>AllowParseableTypes</c> writes, applied type by type so that DateTimeOffset
    /// keeps its surrogate), <c>IncludeDateTimeKind</c> (a DateTime keeps its Kind), a DateTimeOffset surrogate (every tick
    /// and the offset), and, when <paramref name="nullWrappedCollections"/> is set, protobuf-net's null-wrapped layout on
    /// every collection member of every contract it adds (as if each carried <c>[NullWrappedCollection]</c>).
    /// </summary>
    public static RuntimeTypeModel Create(bool nullWrappedCollections)
    {
        var model = RuntimeTypeModel.Create("CacheSerializer");

        // protobuf-net's AllowParseableTypes is checked before anything configured for a member's type
        // (ValueMember.TryGetCoreSerializer, 3.4.40), so with it on a DateTimeOffset member is written as its ToString()
        // in the current culture, whatever surrogate the model has. Off here; ApplyParseable gives every other parseable
        // type the same bytes through a string surrogate, so DateTimeOffset alone takes its own.
        model.SetSurrogate<DateTimeOffset, DateTimeOffsetSurrogate>(DateTimeOffsetSurrogate.From, DateTimeOffsetSurrogate.To);
        model.AllowParseableTypes = false;
        model.IncludeDateTimeKind = true;
        if (nullWrappedCollections)
        {
            PropertyInfo property = ModelInternals.NullWrappedCollection ?? throw ThrowHelper.NullWrappingUnavailable(ModelInternals.Version);
            model.AfterApplyDefaultBehaviour += (_, e) => WrapCollections(e.MetaType, property);
        }

        // Each contract's parseable member types get their surrogates as protobuf-net adds the contract, so the model
        // writes them whether the transcoder or the application calls it (the guards apply the same to roots).
        OwnModels.Add(model, model);
        model.AfterApplyDefaultBehaviour += (_, e) => ApplyParseableMembers(model, e.MetaType);
        return model;
    }

    /// <summary>Whether this protobuf-net lets the transcoder apply the null-wrapped layout (true for 3.4.40).</summary>
    public static bool NullWrappingAvailable => ModelInternals.NullWrappedCollection is not null;

    /// <summary>Whether the transcoder gives <paramref name="model"/>'s parseable types their string surrogates (models from <see cref="Create"/>).</summary>
    public static bool IsOwn(RuntimeTypeModel model) => OwnModels.TryGetValue(model, out _);

    /// <summary>
    /// On a model from <see cref="Create"/>, gives <paramref name="type"/> a string surrogate when protobuf-net's
    /// <c>AllowParseableTypes</c> would write it as text: the same bytes (<c>ToString()</c>, read back with the type's
    /// <c>Parse(string)</c>). Called by the guards on every type a stored type reaches, before its first body is written.
    /// </summary>
    public static void ApplyParseable(RuntimeTypeModel model, Type type)
    {
        type = Nullable.GetUnderlyingType(type) ?? type;
        if (type == typeof(DateTimeOffset) || !IsOwn(model) || !IsParseable(type) || model.CanSerializeBasicType(type)
            || (model.IsDefined(type) && ModelInternals.SurrogateOf(model[type]) is not null))
        {
            return;
        }

        try
        {
            typeof(ProtobufNetModel).GetMethod(nameof(SetTextSurrogate), BindingFlags.NonPublic | BindingFlags.Static)!
                .MakeGenericMethod(type)
                .Invoke(null, [model]);
        }
        catch (TargetInvocationException) when (model.IsDefined(type) && ModelInternals.SurrogateOf(model[type]) is not null)
        {
            // Two threads met the type at once: the other one set the surrogate, and protobuf-net may already have built
            // a serializer with it (it then refuses any change). The type is written as text either way.
        }
    }

    private static void ApplyParseableMembers(RuntimeTypeModel model, MetaType metaType)
    {
        foreach (ValueMember member in metaType.GetFields())
        {
            ApplyParseable(model, member.MemberType);
            if (member.ItemType is { } item)
            {
                foreach (Type type in ContractTypes.IsPair(item) ? item.GetGenericArguments() : [item])
                {
                    ApplyParseable(model, type);
                }
            }
        }
    }

    // protobuf-net's own rule (ParseableSerializer.TryCreate, 3.4.40): a public static Parse(string) declared by the type and
    // returning it; a value type must also declare its own ToString().
    private static bool IsParseable(Type type) =>
        type.GetMethod("Parse", BindingFlags.Public | BindingFlags.Static | BindingFlags.DeclaredOnly, null, [typeof(string)], null) is { } parse
        && parse.ReturnType == type
        && (!type.IsValueType
            || type.GetMethod(nameof(ToString), BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly, null, Type.EmptyTypes, null) is { ReturnType: var returned }
            && returned == typeof(string));

    private static void SetTextSurrogate<T>(RuntimeTypeModel model) => model.SetSurrogate<T, string>(ParseableText<T>.ToText, ParseableText<T>.FromText);

    private static void WrapCollections(MetaType metaType, PropertyInfo property)
    {
        foreach (ValueMember member in metaType.GetFields())
        {
            // ItemType is set on the members protobuf-net writes as repeated fields or maps (not on byte[] or string).
            // SupportNull, the older layout, cannot be combined with the wrapper: a member asking for it keeps it.
            if (member.ItemType is not null && !member.SupportNull)
            {
                property.SetValue(member, true);
            }
        }
    }

    /// <summary>A parseable type's text, as protobuf-net's ParseableSerializer writes and reads it (static methods: protobuf-net's SetSurrogate takes no lambdas).</summary>
    private static class ParseableText<T>
    {
        private static readonly Func<string, T> Parse =
            typeof(T).GetMethod("Parse", BindingFlags.Public | BindingFlags.Static | BindingFlags.DeclaredOnly, null, [typeof(string)], null)!
                .CreateDelegate<Func<string, T>>();

        public static string ToText(T value) => value!.ToString()!;

        public static T FromText(string text) => Parse(text);
    }
}
