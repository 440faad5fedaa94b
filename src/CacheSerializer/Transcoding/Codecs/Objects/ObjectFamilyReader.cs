namespace CacheSerializer.Transcoding.Codecs.Objects;

/// <summary>
/// Reads object payloads under one flag (0xC540 messages, 0xC541 protobuf-net objects): resolves the type header against the
/// types the transcoder knows, then hands the body to that type's <see cref="ObjectCodec"/>.
/// </summary>
/// <remarks>
/// A name or alias resolves only to a type the transcoder already knows (registered, aliased, written before, or the
/// type the caller asked for); nothing is ever loaded by a name from a payload, and an unknown or unexpected type is
/// refused before its body is parsed. A body is read only under the contract it was written under: an item whose
/// fingerprint differs from the reader's for its type (another build of the application wrote it) is refused with a
/// <see cref="ContractMismatchException"/> before its body is parsed.
/// </remarks>
internal sealed class ObjectFamilyReader : IValueReader
{
    private readonly CodecChain _chain;
    private readonly TypeRegistry _registry;
    private ObjectCodec? _last;

    public ObjectFamilyReader(uint flags, CodecChain chain, TypeRegistry registry)
    {
        Flags = flags;
        _chain = chain;
        _registry = registry;
    }

    public uint Flags { get; }

    public bool Compressible => true;

    public object? Read(ReadOnlyMemory<byte> payload, Type? expected)
    {
        // The common read, Deserialize<T> of an item written as T under this contract: its header is exactly T's header
        // bytes (a varint key, then the name, hash or alias, then the fingerprint), so it resolves to T without decoding
        // it. Anything else takes the full path below.
        if (expected is not null
            && CodecOf(expected) is { } own
            && payload.Span.StartsWith(own.Header))
        {
            return own.ReadBody(payload[own.Header.Length..]);
        }

        int headerLength = TypeHeader.Read(payload, Flags, expected, out TypeKey key, out uint fingerprint);
        Type type = Resolve(key, expected);

        if (expected is not null && !expected.IsAssignableFrom(type))
        {
            ThrowHelper.ThrowWrongType(Flags, type, expected);
        }

        if (_chain.ObjectCodecFor(type, Flags) is not { } codec)
        {
            ThrowHelper.ThrowWrongCodecForType(Flags, type);
            return null;
        }

        if (fingerprint != codec.Fingerprint)
        {
            ThrowHelper.ThrowContractMismatch(Flags, type, expected, fingerprint, codec.Fingerprint);
        }

        return codec.ReadBody(payload[headerLength..]);
    }

    // The codec of the T asked for, remembered for the next call: a cache read most often asks for the type it asked for
    // last, and this skips the chain's dictionary. One reference, replaced whole, so concurrent readers never see a torn pair.
    private ObjectCodec? CodecOf(Type expected)
    {
        if (_last is { } last && last.Type == expected)
        {
            return last;
        }

        ObjectCodec? codec = _chain.ObjectCodecFor(expected, Flags);
        if (codec is not null)
        {
            _last = codec;
        }

        return codec;
    }

    private Type Resolve(TypeKey key, Type? expected)
    {
        if (_registry.TryFind(key, out Type? type))
        {
            return type;
        }

        // The caller's T is chosen by the application, not by the payload: learning it (and the subtypes of its
        // inheritance family) is safe, and lets a fresh process read what another one wrote.
        if (key.Alias == 0 && expected is not null && _chain.ObjectCodecFor(expected, Flags) is not null && _registry.TryFind(key, out type))
        {
            return type;
        }

        return ThrowHelper.ThrowUnknownType(Flags, key, expected);
    }
}
