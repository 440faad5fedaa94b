using CacheSerializer.Protobuf;
using CacheSerializer.Protobuf.Internal;

namespace CacheSerializer.Transcoding.Codecs;

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
    // Held once per type: a call goes straight to the compiled serializer, with no model look-up.
    private readonly RootSerializer _serializer;

    private EngineCodec(Type type, string name, byte[] header, RootSerializer serializer)
        : base(TranscoderFlags.EngineObject, type, name, header) => _serializer = serializer;

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

        return new EngineCodec(type, name, registry.HeaderFor(type, name), model.GetRootSerializer(type));
    }

    // The engine writes after `headroom` zero bytes, so the header goes in front without copying the body. The value is
    // always an instance of Type: the chain picks this codec by the value's runtime type.
    protected override byte[] SerializeBody(object value, int headroom) => _serializer.SerializeObject(value, headroom);

    // The engine bounds depth and checks every length against the input, throwing ProtoException on a bad body,
    // which the transcoder reports as a malformed item.
    public override object ReadBody(ReadOnlyMemory<byte> body) => _serializer.DeserializeObject(body.Span)!;
}
