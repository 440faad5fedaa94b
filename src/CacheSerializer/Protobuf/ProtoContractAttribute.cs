namespace CacheSerializer.Protobuf;

/// <summary>Marks a class or struct as a protobuf contract whose <see cref="ProtoMemberAttribute"/> members are serialized.</summary>
/// <remarks>Same name and meaning as protobuf-net's <c>ProtoBuf.ProtoContractAttribute</c>, which is also honoured.</remarks>
[AttributeUsage(AttributeTargets.Class | AttributeTargets.Struct, AllowMultiple = false, Inherited = false)]
public sealed class ProtoContractAttribute : Attribute
{
    /// <summary>Gets or sets a value indicating whether reads create instances without running a constructor.</summary>
    /// <value>Defaults to <see langword="false"/>: the parameterless constructor runs when there is one.</value>
    public bool SkipConstructor { get; set; }

    /// <summary>Gets or sets the schema name of the message; kept for source compatibility, not used on the wire.</summary>
    /// <value>Defaults to <see langword="null"/>.</value>
    public string? Name { get; set; }
}
