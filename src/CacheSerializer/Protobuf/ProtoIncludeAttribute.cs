namespace CacheSerializer.Protobuf;

/// <summary>Declares a derived type of a contract: its fields travel in a sub-message at <see cref="Tag"/>.</summary>
/// <remarks>
/// Same name and meaning as protobuf-net's <c>ProtoBuf.ProtoIncludeAttribute</c>, which is also honoured. An object whose
/// runtime type derives from a contract without being declared this way is never stored lossy: serializing it throws.
/// </remarks>
[AttributeUsage(AttributeTargets.Class | AttributeTargets.Struct, AllowMultiple = true, Inherited = false)]
public sealed class ProtoIncludeAttribute : Attribute
{
    /// <summary>Creates the attribute for a derived type.</summary>
    /// <param name="tag">The field number of the sub-message; must not be used by a member of the same type.</param>
    /// <param name="knownType">The derived type.</param>
    public ProtoIncludeAttribute(int tag, Type knownType)
    {
        Tag = tag;
        KnownType = knownType;
    }

    /// <summary>Gets the field number of the sub-message that carries the derived type's fields.</summary>
    public int Tag { get; }

    /// <summary>Gets the derived type.</summary>
    public Type KnownType { get; }
}
