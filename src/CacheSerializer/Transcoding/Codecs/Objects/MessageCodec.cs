using System.Reflection;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace CacheSerializer.Transcoding.Codecs.Objects;

/// <summary>
/// A Google.Protobuf message type (generated from a .proto): flag 0xC540, type header naming the descriptor's full
/// name (e.g. <c>shop.Order</c>) unless aliased and the fingerprint of its descriptor (<see cref="MessageContract"/>),
/// then the message's own encoding from its generated code.
/// </summary>
internal sealed class MessageCodec : ObjectCodec
{
    private readonly MessageParser _parser;

    private MessageCodec(Type type, string name, string contract, Func<uint, byte[]> header, MessageParser parser)
        : base(TranscoderFlags.ProtobufMessage, type, name, contract, header) => _parser = parser;

    /// <summary>Creates the codec of a generated message type, or returns <see langword="null"/> for any other type.</summary>
    public static MessageCodec? TryCreate(Type type, TypeRegistry registry)
    {
        if (!typeof(IMessage).IsAssignableFrom(type) || type.IsAbstract || type.IsInterface)
        {
            return null;
        }

        // Generated classes expose static Parser and Descriptor properties; a hand-written IMessage without them has
        // no parser to read it back with and goes on down the chain.
        const BindingFlags Statics = BindingFlags.Public | BindingFlags.Static;
        if (type.GetProperty("Parser", Statics)?.GetValue(null) is not MessageParser parser
            || type.GetProperty("Descriptor", Statics)?.GetValue(null) is not MessageDescriptor descriptor)
        {
            return null;
        }

        string name = descriptor.FullName;
        return new MessageCodec(type, name, MessageContract.Describe(descriptor), fingerprint => registry.MessageHeaderFor(type, name, fingerprint), parser);
    }

    protected override byte[] SerializeBody(object value, int headroom)
    {
        var message = (IMessage)value;
        byte[] buffer = new byte[headroom + message.CalculateSize()];
        message.WriteTo(buffer.AsSpan(headroom));
        return buffer;
    }

    // Google.Protobuf bounds nesting (recursion limit 100) and checks every length against the input, throwing
    // InvalidProtocolBufferException, which the transcoder reports as a malformed item.
    public override object ReadBody(ReadOnlyMemory<byte> body) => _parser.ParseFrom(body.Span);
}
