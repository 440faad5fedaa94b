using System.Diagnostics.CodeAnalysis;

namespace CacheSerializer.Transcoding;

/// <summary>
/// Every error the transcoder throws on purpose, built in one place, each naming the flags, the type, the member and the
/// fix. <c>[DoesNotReturn]</c> methods throw; the others return the exception for a <c>throw</c> at the call site.
/// </summary>
/// <remarks>
/// Beside the internals it serves, as System.Text.Json's ThrowHelper.Serialization.cs is; the root's public types
/// (ProtobufTranscoder, its options) call it as <c>Transcoding.ThrowHelper</c>, and the client's errors have their own.
/// </remarks>
internal static class ThrowHelper
{
    private const string FormatDoc = "docs/format.md";

    [DoesNotReturn]
    public static void ThrowWrongLength(uint flags, Type? type, int expected, int actual) =>
        throw new TranscoderException(
            $"Malformed item: flags 0x{flags:X4} ({Describe(type)}) hold exactly {expected} bytes, this item has {actual}.", TranscoderErrorKind.Malformed, flags, type);

    [DoesNotReturn]
    public static T ThrowMalformed<T>(uint flags, Type? type, string detail) =>
        throw new TranscoderException($"Malformed item under flags 0x{flags:X4} ({Describe(type)}): {detail}.", TranscoderErrorKind.Malformed, flags, type);

    [DoesNotReturn]
    public static void ThrowMalformed(uint flags, Type? type, string detail) =>
        throw new TranscoderException($"Malformed item under flags 0x{flags:X4} ({Describe(type)}): {detail}.", TranscoderErrorKind.Malformed, flags, type);

    public static TranscoderException ReadFailed(uint flags, Type? expected, Exception cause) =>
        new($"Cannot read the item under flags 0x{flags:X4} as {Describe(expected)}: {cause.Message}", TranscoderErrorKind.Malformed, flags, expected, cause);

    public static TranscoderException WriteFailed(uint flags, Type type, Exception cause) =>
        new($"Cannot store a {type} (flags 0x{flags:X4}): {cause.Message}", TranscoderErrorKind.Unstorable, flags, type, cause);

    [DoesNotReturn]
    public static T ThrowWrongType<T>(uint flags, Type stored)
    {
        ThrowWrongType(flags, stored, typeof(T));
        return default;
    }

    [DoesNotReturn]
    public static void ThrowWrongType(uint flags, Type stored, Type expected) =>
        throw new TranscoderException(
            $"The item under flags 0x{flags:X4} holds a {stored}, not a {expected}. Read it as {stored} (or object), or store a {expected}.",
            TranscoderErrorKind.WrongType,
            flags,
            expected);

    [DoesNotReturn]
    public static T ThrowNullNotAllowed<T>(uint flags) =>
        throw new TranscoderException(
            $"The item under flags 0x{flags:X4} holds null, which a {typeof(T)} cannot hold; read it as {typeof(T)}? or object.",
            TranscoderErrorKind.WrongType,
            flags,
            typeof(T));

    [DoesNotReturn]
    public static T ThrowUnknownFlags<T>(uint flags) =>
        throw new TranscoderException(
            $"No codec reads flags 0x{flags:X4} and no foreign-item reader is set (ProtobufTranscoderOptions.ForeignItemReader); see {FormatDoc} for the flags this transcoder owns.",
            TranscoderErrorKind.UnknownFlags,
            flags,
            typeof(T));

    [DoesNotReturn]
    public static object ThrowNotEnyimObject(uint flags, Type type) =>
        throw new TranscoderException(
            $"Nothing reads flags 0x{flags:X4}: they are neither this transcoder's nor EnyimMemcachedCore DefaultTranscoder's object entries "
            + $"(0x0101, 0x010F); see {FormatDoc} for the flags each reads.",
            TranscoderErrorKind.UnknownFlags,
            flags,
            type);

    public static TranscoderException Unstorable(Type type, bool fallbackOn, TranscoderException? reason) =>
        reason is not null && fallbackOn
            ? new($"{reason.Message} (Nor is {type} in ProtobufTranscoderOptions.BinaryFormatterFallbackTypes, the unsafe last resort.)", TranscoderErrorKind.Unstorable, null, type, reason.InnerException)
            : reason ?? new(
                $"Cannot store a {type}: no codec handles it. Give it a protobuf contract ([ProtoContract] with [ProtoMember(n)], or "
                + $"[DataContract] with [DataMember(Order = n)]), register a CacheCodec<{type.Name}> in ProtobufTranscoderOptions.Codecs, or, as a "
                + "last resort, list it in ProtobufTranscoderOptions.BinaryFormatterFallbackTypes.",
                TranscoderErrorKind.Unstorable,
                null,
                type);

    public static TranscoderException NoContract(Type type) =>
        new(
            $"Cannot store a {type}: protobuf-net has no contract for it. Mark it [ProtoContract] with [ProtoMember(n)] on its members "
            + "(or [DataContract] with [DataMember(Order = n)]), configure it on the model (RuntimeTypeModel.Add, a surrogate), register a "
            + $"CacheCodec<{type.Name}> in ProtobufTranscoderOptions.Codecs, or, as a last resort, list it in "
            + "ProtobufTranscoderOptions.BinaryFormatterFallbackTypes.",
            TranscoderErrorKind.Unstorable,
            null,
            type);

    public static TranscoderException UndeclaredSubtype(Type stored, Type derived, Type contract, int freeNumber) =>
        new(
            $"Cannot store a {stored}: {derived} derives from the contract {contract}, which does not declare it as a subtype, so protobuf-net "
            + $"would store only {derived}'s own members and read the entry back as a {contract}. Add [ProtoInclude({freeNumber}, typeof({derived.Name}))] "
            + $"to {contract.Name} ({freeNumber} is its lowest free field number), or call model[typeof({contract.Name})].AddSubType({freeNumber}, typeof({derived.Name})).",
            TranscoderErrorKind.Unstorable,
            null,
            stored);

    public static TranscoderException IncludeNumberClash(Type stored, Type contract, Type derived, string member, int number, int freeNumber) =>
        new(
            $"Cannot store a {stored}: {contract} includes its subtype {derived} at field number {number}, which its member {member} also uses "
            + $"(protobuf-net: \"duplicate field number\"). Give the [ProtoInclude] a free number, such as {freeNumber}.",
            TranscoderErrorKind.Unstorable,
            null,
            stored);

    public static TranscoderException CollectionWithMembers(Type stored, Type collection, IEnumerable<string> members) =>
        new(
            $"Cannot store a {stored}: {collection} is a collection with members of its own ({string.Join(", ", members)}), and protobuf-net "
            + "writes a collection as its items only, so those members would be lost. Hold the items in a member of a contract instead "
            + $"of deriving from the collection (composition), or mark {collection.Name} [ProtoContract(IgnoreListHandling = true)] so "
            + "its members are written and its items are not.",
            TranscoderErrorKind.Unstorable,
            null,
            stored);

    public static TranscoderException ParseableDateTimeOffset(Type stored, Type contract, string member) =>
        new(
            $"Cannot store a {stored}: {contract}.{member} is a DateTimeOffset, which protobuf-net writes with AllowParseableTypes (on in the "
            + "model given as ProtobufTranscoderOptions.Model) as its ToString() text, dropping everything below the second and depending on "
            + "the culture. Use the transcoder's own model (ProtobufTranscoder.CreateModel(), which writes parseable types itself and keeps "
            + "every tick and the offset of a DateTimeOffset), or turn AllowParseableTypes off on yours and give DateTimeOffset a surrogate. "
            + "Or store the value as a DateTime in UTC plus its offset.",
            TranscoderErrorKind.Unstorable,
            null,
            stored);

    public static TranscoderException PrefilledCollection(Type stored, Type contract, string member) =>
        new(
            $"Cannot store a {stored}: the constructor of {contract} fills its collection {member}, and protobuf-net adds what it reads to "
            + $"the items already there (an empty or null {member} reads back as the constructor's items, OverwriteList or not). Have the "
            + "constructor leave it null or empty, and fill it where the object is built.",
            TranscoderErrorKind.Unstorable,
            null,
            stored);

    public static TranscoderException NotReadable(Type type, Exception cause) =>
        new(
            $"Cannot store a {type}: protobuf-net could write it but not read it back ({cause.Message}). Give it a parameterless "
            + "constructor (or [ProtoContract(SkipConstructor = true)]), and use collection types that can be created and added to.",
            TranscoderErrorKind.Unstorable,
            null,
            type,
            cause);

    public static TranscoderException NullWrappingUnavailable(Version? protobufNetVersion) =>
        new(
            $"The protobuf-net in this application ({protobufNetVersion}) does not let CacheSerializer apply its null-wrapped collection "
            + "layout ([NullWrappedCollection]) at model-build time, which it does on protobuf-net 3.4.40 through ValueMember.NullWrappedCollection. "
            + "Use protobuf-net 3.4.40, or set ProtobufTranscoderOptions.NullWrappedCollections = false (null and empty collections are then "
            + "written alike, as plain protobuf-net does).",
            TranscoderErrorKind.Unstorable,
            null,
            null);

    public static TranscoderException ModelInternalsUnavailable(Version? protobufNetVersion) =>
        new(
            $"The protobuf-net in this application ({protobufNetVersion}) does not show CacheSerializer the member layouts it reads on "
            + "protobuf-net 3.4.40 (ValueMember.NullWrapped*, MetaType.surrogateType) to compute a contract's fingerprint, so it cannot tell "
            + "whether an item was written under the same contract. Use protobuf-net 3.4.40.",
            TranscoderErrorKind.Unstorable,
            null,
            null);

    public static TranscoderException NameTaken(string name, Type existing, Type type) =>
        new(
            $"Two types are stored under the name '{name}': {existing} and {type}. A payload could not say which one it holds; "
            + "rename one of them, or keep only one of them in the cache.",
            TranscoderErrorKind.Unstorable,
            null,
            type);

    public static TranscoderException HashTaken(uint hash, Type existing, Type type) =>
        new(
            $"The type names of {existing} and {type} have the same 32-bit hash (0x{hash:X8}), which an object item's header carries: "
            + $"a payload could not say which one it holds. Give one of them an alias in ProtobufTranscoderOptions.TypeAliases.",
            TranscoderErrorKind.Unstorable,
            null,
            type);

    [DoesNotReturn]
    public static void ThrowTooLarge(Type type, uint flags, int size, int limit) =>
        throw new TranscoderException(
            $"A {type} stores as {size} bytes (flags 0x{flags:X4}), above ProtobufTranscoderOptions.MaxValueSize ({limit} bytes); memcached would refuse it. "
            + "Store less, turn on compression, or raise MaxValueSize (the client's MemcachedClientOptions.MaxValueSize, which it follows) together with memcached's -I item size limit.",
            TranscoderErrorKind.Unstorable,
            flags,
            type);

    [DoesNotReturn]
    public static Type ThrowUnknownType(uint flags, TypeKey key, Type? expected) =>
        throw new TranscoderException(
            key.Alias != 0
                ? $"The item under flags 0x{flags:X4} names type alias {key.Alias}, which is not in ProtobufTranscoderOptions.TypeAliases."
                : $"The item under flags 0x{flags:X4} names type {key}, which this transcoder does not know; types are never loaded by a name "
                  + "from a payload. Read it with Deserialize<T> of that type (or of its base contract), or add the type to "
                  + "ProtobufTranscoderOptions.KnownTypes or TypeAliases.",
            TranscoderErrorKind.UnknownType,
            flags,
            expected);

    [DoesNotReturn]
    public static void ThrowContractMismatch(uint flags, Type stored, Type? expected, uint storedFingerprint, uint fingerprint) =>
        throw new ContractMismatchException(
            $"The item under flags 0x{flags:X4} holds a {stored} written under another contract (fingerprint 0x{storedFingerprint:X8}; this "
            + $"build's is 0x{fingerprint:X8}): another build of the application, whose model of the type differs in something that decides "
            + "the bytes. Its body was not read. Expected while builds with different models share the cache (a rolling deploy); the "
            + "entry is replaced when this build stores the key again. ProtobufTranscoder.DescribeContract shows this build's contract.",
            flags,
            expected,
            stored,
            storedFingerprint,
            fingerprint);

    [DoesNotReturn]
    public static void ThrowWrongCodecForType(uint flags, Type type) =>
        throw new TranscoderException(
            $"Malformed item: flags 0x{flags:X4} name the type {type}, which is not stored under these flags (see {FormatDoc}).", TranscoderErrorKind.Malformed, flags, type);

    public static TranscoderException BinaryFormatterUnavailable(uint flags, Type? type, Exception cause) =>
        new(
            "The BinaryFormatter fallback is on (ProtobufTranscoderOptions.BinaryFormatterFallbackTypes), but BinaryFormatter is not available in this "
            + "application. On .NET 9 and later add to the application's project file: <PackageReference Include=\"System.Runtime.Serialization.Formatters\" "
            + "Version=\"10.0.*\" /> and <EnableUnsafeBinaryFormatterSerialization>true</EnableUnsafeBinaryFormatterSerialization> in a <PropertyGroup>.",
            TranscoderErrorKind.UnknownFlags,
            flags,
            type,
            cause);

    public static TranscoderException BinaryFormatterRefused(uint flags, string typeName, string assemblyName, bool writing) =>
        new(
            (writing ? $"Cannot store through BinaryFormatter: the value contains a '{typeName}'" : $"The BinaryFormatter item under flags 0x{flags:X4} names '{typeName}'")
            + $" ({assemblyName}), which is not in ProtobufTranscoderOptions.BinaryFormatterFallbackTypes; "
            + (writing ? "add it there if it is safe to read back." : "it was refused before anything of it was created."),
            writing ? TranscoderErrorKind.Unstorable : TranscoderErrorKind.UnknownType,
            flags,
            null);

    [DoesNotReturn]
    public static object ThrowBinaryFormatterOff(uint flags, Type? expected) =>
        throw new TranscoderException(
            $"The item under flags 0x{flags:X4} was written by the BinaryFormatter fallback, which is off here; it is read only for the types in "
            + "ProtobufTranscoderOptions.BinaryFormatterFallbackTypes.",
            TranscoderErrorKind.UnknownFlags,
            flags,
            expected);

    public static TranscoderException NoContractDescribed(Type type) =>
        new(
            $"{type} is not stored with a contract: the transcoder writes it natively, through an application codec or through the "
            + "BinaryFormatter fallback, and its items carry no fingerprint. Only protobuf-net types and Google.Protobuf messages have one.",
            TranscoderErrorKind.Unstorable,
            null,
            type);

    public static TranscoderException EnyimBsonWriteRefused(Type? type) =>
        new("The EnyimMemcachedCore BSON reader only reads old entries; ProtobufTranscoder writes new ones.", TranscoderErrorKind.Unstorable, null, type);

    public static TranscoderException NoEnyimFormat(Type type, bool native) =>
        new(
            $"Cannot store a {type} while objects are written as EnyimMemcachedCore writes them (ObjectFormat EnyimBson, the migration phase): "
            + (native
                ? "its DefaultTranscoder has no format for this type (its Serialize throws, so its applications never cached one, and it reads none). "
                : "its DefaultTranscoder cannot store it (BSON's root must be a document or an array, and this type's JSON is a single value). ")
            + "Store it as a type DefaultTranscoder stores (a string, a long, a double, or inside a class), or set ProtobufTranscoder:ObjectFormat "
            + "to Protobuf once no EnyimMemcachedCore application shares the cache (docs/migrating-from-enyim.md).",
            TranscoderErrorKind.Unstorable,
            null,
            type);

    public static TranscoderException EnyimBsonReadFailed(uint flags, Type type, Exception cause) =>
        new($"Cannot read the EnyimMemcachedCore BSON entry under flags 0x{flags:X4} as {type}: {cause.Message}", TranscoderErrorKind.Malformed, flags, type, cause);

    /// <summary>Every invalid option at once, a line each, naming the property, what is wrong and what is allowed.</summary>
    [DoesNotReturn]
    public static void ThrowInvalidTranscoderOptions(IReadOnlyList<(string Property, string Problem)> problems) =>
        throw new ArgumentException(string.Join(Environment.NewLine, problems.Select(static p => $"ProtobufTranscoderOptions.{p.Property} {p.Problem}")));

    private static string Describe(Type? type) => (type ?? typeof(object)).ToString();
}
