using CacheSerializer.Transcoding.ProtobufNet;

namespace CacheSerializer.Transcoding.Codecs.Objects;

/// <summary>
/// An object protobuf-net stores (a contract, or a collection or map of them): flag 0xC541, the type header (the type's
/// alias, or the hash of its stable name, then its contract's fingerprint), then exactly the body protobuf-net's own
/// Serialize writes for the model.
/// </summary>
/// <remarks>
/// Creating the codec of a contract also makes every type of its inheritance family (the root and every subtype reachable
/// through includes) resolvable: those, and only those, are the types an entry read as this contract may hold.
/// </remarks>
internal sealed class ProtobufNetCodec : ObjectCodec
{
    // Held once per type: a call goes straight to the typed protobuf-net calls, with no look-up.
    private readonly TypeBody _body;

    private ProtobufNetCodec(Type type, string name, string contract, Func<uint, byte[]> header, TypeBody body)
        : base(TranscoderFlags.ProtobufNetObject, type, name, contract, header) => _body = body;

    /// <summary>Creates the codec of a type protobuf-net stores faithfully, or returns <see langword="null"/> with the reason it does not.</summary>
    public static ProtobufNetCodec? TryCreate(Type type, ProtobufNetAdapter adapter, TypeRegistry registry, out TranscoderException? reason)
    {
        reason = adapter.Refuse(type);
        if (reason is not null)
        {
            return null;
        }

        string name = StableTypeName.Of(type);
        registry.AddContract(name, type);
        foreach (Type member in adapter.FamilyOf(type))
        {
            registry.AddContract(StableTypeName.Of(member), member);
        }

        return new ProtobufNetCodec(
            type, name, adapter.Describe(type), fingerprint => registry.ContractHeaderFor(type, name, fingerprint), adapter.CreateBody(type));
    }

    // The value is always an instance of Type: the chain picks this codec by the value's runtime type.
    protected override byte[] SerializeBody(object value, int headroom) => _body.Write(value, headroom);

    // protobuf-net checks every length against the input and bounds depth; its exceptions on a bad body reach the
    // caller wrapped in a TranscoderException (malformed item) by the transcoder.
    public override object ReadBody(ReadOnlyMemory<byte> body) => _body.Read(body);
}
