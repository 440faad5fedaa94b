namespace CacheSerializer.Protobuf;

/// <summary>Serializes a field or property at a protobuf field number.</summary>
/// <remarks>Same name and meaning as protobuf-net's <c>ProtoBuf.ProtoMemberAttribute</c>, which is also honoured.</remarks>
[AttributeUsage(AttributeTargets.Field | AttributeTargets.Property, AllowMultiple = false, Inherited = true)]
public sealed class ProtoMemberAttribute : Attribute
{
    /// <summary>Creates the attribute for a field number.</summary>
    /// <param name="tag">The protobuf field number, from 1 to 536,870,911 outside 19,000-19,999.</param>
    public ProtoMemberAttribute(int tag) => Tag = tag;

    /// <summary>Gets the protobuf field number.</summary>
    public int Tag { get; }

    /// <summary>Gets or sets a value indicating whether a repeated numeric member is written packed (one length-delimited field).</summary>
    /// <value>Defaults to <see langword="false"/>; the reader accepts packed and unpacked data whatever the setting.</value>
    public bool IsPacked { get; set; }

    /// <summary>Gets or sets a value indicating whether a read replaces what the constructor put in a collection instead of appending to it.</summary>
    /// <value>Defaults to <see langword="false"/> (append, as protobuf-net does).</value>
    public bool OverwriteList { get; set; }

    /// <summary>Gets or sets the schema name of the field; kept for source compatibility, not used on the wire.</summary>
    /// <value>Defaults to <see langword="null"/>.</value>
    public string? Name { get; set; }
}
