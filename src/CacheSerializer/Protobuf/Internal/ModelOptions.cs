namespace CacheSerializer.Protobuf.Internal;

/// <summary>The configuration of a <see cref="ProtoModel"/>, mutable until the model's first use and read-only afterwards.</summary>
internal sealed class ModelOptions
{
    /// <summary>Gets types configured without attributes: member name to field number.</summary>
    public Dictionary<Type, Dictionary<string, int>> Types { get; } = [];

    /// <summary>Gets subtypes added to a base at start-up, in addition to its <c>[ProtoInclude]</c>s.</summary>
    public Dictionary<Type, List<IncludePlan>> SubTypes { get; } = [];

    /// <summary>Gets surrogates: a type stored as another (contract) type through conversion operators.</summary>
    public Dictionary<Type, Type> Surrogates { get; } = [];

    public bool AllowParseableTypes { get; set; } = true;

    public bool IncludeDateTimeKind { get; set; } = true;
}
