using CacheSerializer.Protobuf;

namespace CacheSerializer.Internal.Codecs;

/// <summary>
/// An object the protobuf engine stores (a contract, a collection of contracts, ...): flag 0xC541, type header naming
/// the runtime type (or its alias), then the engine's protobuf body (docs/protobuf-format.md).
/// </summary>
/// <remarks>
/// Creating the codec of a contract also makes the names of every <c>[ProtoInclude]</c> subtype of its root contract
/// resolvable: those, and only those, are the types an entry read as this contract may hold.
/// </remarks>
internal sealed class EngineCodec : ObjectCodec
{
    private readonly ProtoModel _model;

    private EngineCodec(Type type, string name, byte[] header, ProtoModel model)
        : base(TranscoderFlags.EngineObject, type, name, header) => _model = model;

    /// <summary>Creates the codec of a type the engine stores, or returns <see langword="null"/> with the engine's reason.</summary>
    public static EngineCodec? TryCreate(Type type, ProtoModel model, TypeRegistry registry, out CacheSerializerException? reason)
    {
        if (!model.CanSerialize(type, out reason))
        {
            return null;
        }

        var name = StableTypeName.Of(type);
        registry.AddName(name, type);

        var root = model.GetRootContract(type);
        if (root != type && model.CanSerialize(root))
        {
            registry.AddName(StableTypeName.Of(root), root);
        }

        foreach (var subType in model.GetSubTypes(root))
        {
            registry.AddName(StableTypeName.Of(subType), subType);
        }

        return new EngineCodec(type, name, registry.HeaderFor(type, name), model);
    }

    // The engine writes after `headroom` zero bytes, so the header goes in front without copying the body.
    protected override byte[] SerializeBody(object value, int headroom) => _model.Serialize(Type, value, headroom);

    // The engine bounds depth and checks every length against the input, throwing ProtoException on a bad body,
    // which the transcoder reports as a malformed item.
    public override object ReadBody(ReadOnlyMemory<byte> body) => _model.Deserialize(Type, body)!;
}
