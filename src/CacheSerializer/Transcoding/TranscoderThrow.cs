using System.Diagnostics.CodeAnalysis;

namespace CacheSerializer.Transcoding;

/// <summary>Every error text of the transcoder, in one place; each names the flags, the type and, where there is one, the fix.</summary>
internal static class TranscoderThrow
{
    private const string FormatDoc = "docs/format.md";

    [DoesNotReturn]
    public static void WrongLength(uint flags, Type? type, int expected, int actual) =>
        throw new TranscoderException(
            $"Malformed item: flags 0x{flags:X4} ({Describe(type)}) hold exactly {expected} bytes, this item has {actual}.", flags, type);

    [DoesNotReturn]
    public static T Malformed<T>(uint flags, Type? type, string detail) =>
        throw new TranscoderException($"Malformed item under flags 0x{flags:X4} ({Describe(type)}): {detail}.", flags, type);

    [DoesNotReturn]
    public static void Malformed(uint flags, Type? type, string detail) =>
        throw new TranscoderException($"Malformed item under flags 0x{flags:X4} ({Describe(type)}): {detail}.", flags, type);

    public static TranscoderException ReadFailed(uint flags, Type? expected, Exception cause) =>
        new($"Cannot read the item under flags 0x{flags:X4} as {Describe(expected)}: {cause.Message}", flags, expected, cause);

    public static TranscoderException WriteFailed(uint flags, Type type, Exception cause) =>
        new($"Cannot store a {type} (flags 0x{flags:X4}): {cause.Message}", flags, type, cause);

    [DoesNotReturn]
    public static T WrongType<T>(uint flags, Type stored)
    {
        WrongType(flags, stored, typeof(T));
        return default;
    }

    [DoesNotReturn]
    public static void WrongType(uint flags, Type stored, Type expected) =>
        throw new TranscoderException(
            $"The item under flags 0x{flags:X4} holds a {stored}, not a {expected}. Read it as {stored} (or object), or store a {expected}.",
            flags,
            expected);

    [DoesNotReturn]
    public static T NullNotAllowed<T>(uint flags) =>
        throw new TranscoderException(
            $"The item under flags 0x{flags:X4} holds null, which a {typeof(T)} cannot hold; read it as {typeof(T)}? or object.",
            flags,
            typeof(T));

    [DoesNotReturn]
    public static T UnknownFlags<T>(uint flags) =>
        throw new TranscoderException(
            $"No codec reads flags 0x{flags:X4} and no inner transcoder is set (ProtobufTranscoderOptions.InnerTranscoder); see {FormatDoc} for the flags this transcoder owns.",
            flags,
            typeof(T));

    [DoesNotReturn]
    public static object NotEnyimObject(uint flags, Type type) =>
        throw new TranscoderException(
            $"Nothing reads flags 0x{flags:X4}: they are neither this transcoder's nor EnyimMemcachedCore DefaultTranscoder's object entries "
            + $"(0x0101, 0x010F); see {FormatDoc} for the flags each reads.",
            flags,
            type);

    public static TranscoderException Unstorable(Type type, bool fallbackOn, CacheSerializerException? engineReason) =>
        new(
            $"Cannot store a {type}: no codec handles it"
            + (engineReason is null ? ". " : $" (the protobuf engine: {engineReason.Message}). ")
            + "Ways out: give it a protobuf contract ([ProtoContract] with [ProtoMember] fields) "
            + $"or a model entry for the protobuf engine, register a surrogate for it, register a CacheCodec<{type.Name}> in ProtobufTranscoderOptions.Codecs, "
            + (fallbackOn
                ? "or add it to ProtobufTranscoderOptions.BinaryFormatterFallbackTypes (unsafe, last resort)."
                : "or, as a last resort, turn on the BinaryFormatter fallback for it with ProtobufTranscoderOptions.BinaryFormatterFallbackTypes."),
            null,
            type,
            engineReason);

    [DoesNotReturn]
    public static void TooLarge(Type type, uint flags, int size, int limit) =>
        throw new TranscoderException(
            $"A {type} stores as {size} bytes (flags 0x{flags:X4}), above ProtobufTranscoderOptions.MaxItemSize ({limit} bytes); memcached would refuse it. "
            + "Store less, turn on compression, or raise MaxItemSize together with memcached's -I item size limit.",
            flags,
            type);

    [DoesNotReturn]
    public static Type UnknownTypeName(uint flags, string name, Type? expected) =>
        throw new TranscoderException(
            $"The item under flags 0x{flags:X4} names type '{name}', which this transcoder does not know; types are never loaded by a name "
            + $"from a payload. Read it with Deserialize<T> of that type, or add the type to ProtobufTranscoderOptions.KnownTypes or TypeAliases.",
            flags,
            expected);

    [DoesNotReturn]
    public static Type UnknownAlias(uint flags, int alias, Type? expected) =>
        throw new TranscoderException(
            $"The item under flags 0x{flags:X4} names type alias {alias}, which is not in ProtobufTranscoderOptions.TypeAliases.", flags, expected);

    [DoesNotReturn]
    public static void WrongCodecForType(uint flags, Type type) =>
        throw new TranscoderException(
            $"Malformed item: flags 0x{flags:X4} name the type {type}, which is not stored under these flags (see {FormatDoc}).", flags, type);

    public static TranscoderException BinaryFormatterUnavailable(uint flags, Type? type, Exception cause) =>
        new(
            "The BinaryFormatter fallback is on (ProtobufTranscoderOptions.BinaryFormatterFallbackTypes), but BinaryFormatter is not available in this "
            + "application. On .NET 9 and later add to the application's project file: <PackageReference Include=\"System.Runtime.Serialization.Formatters\" "
            + "Version=\"10.0.*\" /> and <EnableUnsafeBinaryFormatterSerialization>true</EnableUnsafeBinaryFormatterSerialization> in a <PropertyGroup>.",
            flags,
            type,
            cause);

    public static TranscoderException BinaryFormatterRefused(uint flags, string typeName, string assemblyName, bool writing) =>
        new(
            (writing ? $"Cannot store through BinaryFormatter: the value contains a '{typeName}'" : $"The BinaryFormatter item under flags 0x{flags:X4} names '{typeName}'")
            + $" ({assemblyName}), which is not in ProtobufTranscoderOptions.BinaryFormatterFallbackTypes; "
            + (writing ? "add it there if it is safe to read back." : "it was refused before anything of it was created."),
            flags,
            null);

    [DoesNotReturn]
    public static object BinaryFormatterOff(uint flags, Type? expected) =>
        throw new TranscoderException(
            $"The item under flags 0x{flags:X4} was written by the BinaryFormatter fallback, which is off here; it is read only for the types in "
            + "ProtobufTranscoderOptions.BinaryFormatterFallbackTypes.",
            flags,
            expected);

    [DoesNotReturn]
    public static void InvalidOption(string property, string problem) =>
        throw new ArgumentException($"ProtobufTranscoderOptions.{property} {problem}");

    private static string Describe(Type? type) => (type ?? typeof(object)).ToString();
}
