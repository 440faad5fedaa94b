using System.Collections.Concurrent;
using System.Collections.Frozen;
using CacheSerializer.Transcoding.Codecs;
using CacheSerializer.Transcoding.Codecs.Legacy;
using CacheSerializer.Transcoding.Codecs.Objects;
using CacheSerializer.Transcoding.ProtobufNet;

namespace CacheSerializer.Transcoding;

/// <summary>
/// The one place a type's codec is chosen: once per type, then cached (a lock-free dictionary read on every later
/// Serialize). A failure is cached too, so an unstorable type fails fast without walking the chain again.
/// </summary>
internal sealed class CodecChain
{
    private readonly ConcurrentDictionary<Type, Choice> _writers = new();
    private readonly ConcurrentDictionary<Type, IValueWriter>? _migrationWriters;
    private readonly Func<Type, IValueWriter>? _createMigrationWriter;
    private readonly ConcurrentDictionary<(Type Type, uint Flags), ObjectCodec?> _readers = new();
    private readonly Func<Type, Choice> _create;
    private readonly Func<(Type Type, uint Flags), ObjectCodec?> _createReader;
    private readonly FrozenDictionary<Type, IValueWriter> _userCodecs;
    private readonly TypeRegistry _registry;
    private readonly BinaryFormatterCodec? _fallback;
    private readonly ProtobufNetAdapter _protobufNet;
    private readonly EnyimObjectCodec _enyimObjects;

    public CodecChain(IEnumerable<UserCodecAdapter> userCodecs, TypeRegistry registry, ProtobufNetAdapter protobufNet, BinaryFormatterCodec? fallback, TranscoderObjectFormat objectFormat = TranscoderObjectFormat.Protobuf, EnyimObjectCodec? enyimObjects = null)
    {
        _enyimObjects = enyimObjects ?? EnyimBsonCodec.Objects;
        if (objectFormat == TranscoderObjectFormat.EnyimBson)
        {
            _migrationWriters = new();
            _createMigrationWriter = CreateMigrationWriter;
        }

        _protobufNet = protobufNet;
        _userCodecs = userCodecs.ToFrozenDictionary(codec => codec.Type, IValueWriter (codec) => codec);
        _registry = registry;
        _fallback = fallback;
        _create = Create;
        _createReader = CreateReader;
    }

    // The choice made last: a cache writes the same type many times in a row, and this skips the dictionary. One
    // reference, replaced whole (no allocation: choices are created once, in the dictionary), so it is never torn.
    private Choice? _last;

    /// <summary>Returns the writer of <paramref name="type"/>; for a type nothing stores, a writer that throws why.</summary>
    public IValueWriter For(Type type)
    {
        if (_last is { } last && last.Type == type)
        {
            return last.Writer;
        }

        Choice choice = _writers.TryGetValue(type, out Choice? found) ? found : _writers.GetOrAdd(type, _create);
        _last = choice;
        return choice.Writer;
    }

    /// <summary>
    /// Returns the writer Serialize uses for <paramref name="type"/>: <see cref="For"/>, or in the migration phase
    /// (<see cref="TranscoderObjectFormat.EnyimBson"/>) what EnyimMemcachedCore's DefaultTranscoder would write.
    /// </summary>
    public IValueWriter WriterFor(Type type) =>
        _migrationWriters is null ? For(type) : _migrationWriters.GetOrAdd(type, _createMigrationWriter!);

    /// <summary>
    /// Returns the object codec that reads <paramref name="type"/>'s bodies under <paramref name="flags"/>, or
    /// <see langword="null"/>. Usually the type's own writer; but an item written before the configuration changed
    /// (an application codec registered for a message type, say) still reads through the codec that wrote it.
    /// </summary>
    public ObjectCodec? ObjectCodecFor(Type type, uint flags) =>
        For(type) is ObjectCodec codec && codec.Flags == flags ? codec : _readers.GetOrAdd((type, flags), _createReader);

    private ObjectCodec? CreateReader((Type Type, uint Flags) key)
    {
        try
        {
            ObjectCodec? codec = key.Flags switch
            {
                TranscoderFlags.ProtobufMessage => MessageCodec.TryCreate(key.Type, _registry),
                TranscoderFlags.ProtobufNetObject => ProtobufNetCodec.TryCreate(key.Type, _protobufNet, _registry, out _),
                _ => null,
            };
            if (codec is not null)
            {
                _registry.AddName(codec.Name, codec.Type);
            }

            return codec;
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            return null;
        }
    }

    private Choice Create(Type type) => new(type, CreateWriter(type));

    private IValueWriter CreateWriter(Type type)
    {
        try
        {
            return Choose(type);
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            // A generated message whose static constructor throws, a type name over the header limit, a name or hash taken
            // by another type, protobuf-net refusing the type's model: the type cannot be stored, and asking again gives the same answer.
            return new UnstorableWriter(
                e as TranscoderException ?? new TranscoderException($"Cannot store a {type}: choosing its codec failed: {e.Message}", TranscoderErrorKind.Unstorable, null, type, e));
        }
    }

    private IValueWriter Choose(Type type)
    {
        // 1. The application's own codec for exactly this type.
        if (_userCodecs.TryGetValue(type, out IValueWriter? user))
        {
            return user;
        }

        // 2. Native primitives (enums through their underlying type).
        if (NativeCodecs.TryGetWriter(type, out IValueWriter? native))
        {
            return native;
        }

        // 3. Google.Protobuf messages, through their generated code.
        if (MessageCodec.TryCreate(type, _registry) is { } message)
        {
            _registry.AddName(message.Name, type);
            return message;
        }

        // 4. protobuf-net: contracts, and the collections and maps of them, once the guards found nothing it would lose.
        if (ProtobufNetCodec.TryCreate(type, _protobufNet, _registry, out TranscoderException? refusal) is { } contract)
        {
            return contract;
        }

        // 5. The opt-in BinaryFormatter fallback, for allowlisted types only.
        if (_fallback is not null && _fallback.Allows(type))
        {
            return _fallback;
        }

        return new UnstorableWriter(ThrowHelper.Unstorable(type, _fallback is not null, refusal));
    }

    /// <summary>
    /// The migration phase's choice: the application's codec; a native DefaultTranscoder writes alike (its primitives
    /// and their flags are shared by every EnyimMemcachedCore transcoder); anything else as the application's
    /// EnyimMemcachedCore transcoder writes its objects (0x0101), or refused where that transcoder's Serialize throws.
    /// </summary>
    private IValueWriter CreateMigrationWriter(Type type)
    {
        if (_userCodecs.TryGetValue(type, out IValueWriter? user))
        {
            return user;
        }

        if (NativeCodecs.TryGetWriter(type, out IValueWriter? native) && !TranscoderFlags.IsOwn(native.Flags))
        {
            return native;
        }

        return _enyimObjects.Refusal(type) is { } refusal ? new UnstorableWriter(refusal) : _enyimObjects;
    }

    private sealed record Choice(Type Type, IValueWriter Writer);
}
