using System.Reflection;
using ProtoBuf.Meta;

namespace CacheSerializer.Transcoding.ProtobufNet;

/// <summary>
/// The few members of protobuf-net 3.4.40 the transcoder needs and protobuf-net keeps internal, found once by reflection.
/// If an upgrade renames or removes one, what depends on it fails loudly (a model that needs null-wrapping is refused; a
/// fingerprint that cannot see a member's layout is refused) rather than silently writing or describing other bytes.
/// ProtobufNetAdapterTests pins each of them.
/// </summary>
internal static class ModelInternals
{
    // ValueMember.NullWrappedCollection: what [NullWrappedCollection] sets; no public way to set it at model-build time.
    public static readonly PropertyInfo? NullWrappedCollection = BoolProperty("NullWrappedCollection", writable: true);

    // The other null layouts ([NullWrappedCollection(AsGroup = true)], [NullWrappedValue]): read for the fingerprint only.
    public static readonly PropertyInfo? NullWrappedCollectionGroup = BoolProperty("NullWrappedCollectionGroup", writable: false);

    public static readonly PropertyInfo? NullWrappedValue = BoolProperty("NullWrappedValue", writable: false);

    public static readonly PropertyInfo? NullWrappedValueGroup = BoolProperty("NullWrappedValueGroup", writable: false);

    // MetaType.surrogateType: the type a surrogated type is written as (SetSurrogate); no public getter.
    public static readonly FieldInfo? SurrogateType =
        typeof(MetaType).GetField("surrogateType", ContractTypes.Instance) is { FieldType: var type } field && type == typeof(Type) ? field : null;

    /// <summary>Whether every member above was found (true on protobuf-net 3.4.40).</summary>
    public static bool Complete =>
        NullWrappedCollection is not null && NullWrappedCollectionGroup is not null && NullWrappedValue is not null
        && NullWrappedValueGroup is not null && SurrogateType is not null;

    public static bool Read(PropertyInfo? property, ValueMember member) =>
        property is not null ? (bool)property.GetValue(member)! : throw ThrowHelper.ModelInternalsUnavailable(Version);

    public static Type? SurrogateOf(MetaType meta) =>
        SurrogateType is not null ? (Type?)SurrogateType.GetValue(meta) : throw ThrowHelper.ModelInternalsUnavailable(Version);

    public static Version? Version => typeof(ValueMember).Assembly.GetName().Version;

    private static PropertyInfo? BoolProperty(string name, bool writable) =>
        typeof(ValueMember).GetProperty(name, ContractTypes.Instance) is { PropertyType: var type, CanRead: true } property && type == typeof(bool) && (!writable || property.CanWrite)
            ? property
            : null;
}
