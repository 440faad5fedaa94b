using CacheSerializer.Transcoding.Codecs.Legacy;
using MessagePack;
using MessagePack.Resolvers;

namespace CacheSerializer.Enyim.Internal;

/// <summary>
/// EnyimMemcachedCore MessagePackTranscoder's objects under flag 0x0101 (cnblogs/EnyimMemcachedCore at
/// e383c4c742190da94007579ccb7377443021a7eb, src/Enyim.Caching/Memcached/Transcoders/MessagePackTranscoder.cs): its
/// <c>SerializeObject</c> is <c>MessagePackSerializer.Serialize(value, options)</c> with <c>value</c> typed as object,
/// the options being <c>MessagePackSerializerOptions.Standard</c> with a composite resolver of NativeDateTime, NativeGuid,
/// NativeDecimal, ContractlessStandardResolverAllowPrivate and ContractlessStandard, in that order. Written with that
/// same call and those same options, so its bytes are the library's own.
/// </summary>
/// <remarks>
/// Reading differs where MessagePackTranscoder would fail or trust the payload: it reads into the type asked for
/// (MessagePackTranscoder sends a decimal, DateTime or other non-Object TypeCode through its
/// <c>DeserializeObject</c>, which throws NotSupportedException), and with <see cref="MessagePackSecurity.UntrustedData"/>
/// (bounded depth, collision-resistant hashing). The chain has no typeless resolver, so no payload names a type to load.
/// </remarks>
internal sealed class MessagePackObjects : EnyimObjectCodec
{
    /// <summary>The one instance: the options are built on the first MessagePack item written or read.</summary>
    public static readonly MessagePackObjects Instance = new();

    private MessagePackObjects()
    {
    }

    public override string TranscoderName => "MessagePackTranscoder";

    /// <summary>A type no formatter of the chain writes (MessagePackTranscoder's Serialize throws
    /// FormatterNotRegisteredException on it, so its applications never cached one) is refused.</summary>
    public override TranscoderException? Refusal(Type type)
    {
        Exception? cause = null;
        try
        {
            if (Options.Writer.Resolver.GetFormatterDynamic(type) is not null)
            {
                return null;
            }
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            // A formatter that cannot be built (MessagePack caches the failure of its static constructor for the process).
            cause = e;
        }

        return new TranscoderException(
            $"Cannot store a {type} as EnyimMemcachedCore's MessagePackTranscoder writes it (flags 0x0101, the migration phase): no formatter of its "
            + "resolver chain (NativeDateTime, NativeGuid, NativeDecimal, ContractlessStandardResolverAllowPrivate, ContractlessStandard) writes it, so "
            + "its Serialize throws and its applications never cached one. Store it inside a class, or set ProtobufTranscoder:ObjectFormat to Protobuf "
            + "once no EnyimMemcachedCore application shares the cache (docs/migrating-from-enyim.md).",
            TranscoderErrorKind.Unstorable,
            null,
            type,
            cause);
    }

    public override ArraySegment<byte> Write(object value) => MessagePackSerializer.Serialize<object>(value, Options.Writer);

    public override object? Read(ReadOnlyMemory<byte> payload, Type? expected) =>
        MessagePackSerializer.Deserialize(expected ?? typeof(object), payload, Options.Reader);

    // Created on the first MessagePack item, so an application whose cache holds none never loads MessagePack.
    private static class Options
    {
        public static readonly MessagePackSerializerOptions Writer = MessagePackSerializerOptions.Standard.WithResolver(CompositeResolver.Create(
            NativeDateTimeResolver.Instance,
            NativeGuidResolver.Instance,
            NativeDecimalResolver.Instance,
            ContractlessStandardResolverAllowPrivate.Instance,
            ContractlessStandardResolver.Instance));

        public static readonly MessagePackSerializerOptions Reader = Writer.WithSecurity(MessagePackSecurity.UntrustedData);
    }
}
