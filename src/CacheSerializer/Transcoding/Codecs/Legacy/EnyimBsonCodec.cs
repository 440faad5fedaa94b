using System.Runtime.InteropServices;
using Newtonsoft.Json;
using Newtonsoft.Json.Bson;
using Newtonsoft.Json.Serialization;

namespace CacheSerializer.Transcoding.Codecs.Legacy;

/// <summary>
/// EnyimMemcachedCore DefaultTranscoder's objects: the BSON a default Newtonsoft.Json <see cref="JsonSerializer"/> writes
/// into a <see cref="BsonDataWriter"/>, under flag 0x0101 (and 0x010F, its older decimals, read only). Writes them in the
/// migration phase (<see cref="TranscoderObjectFormat.EnyimBson"/>); reads them always (docs/format.md, "EnyimMemcachedCore objects").
/// </summary>
/// <remarks>
/// The writer's bytes are DefaultTranscoder's: the same serializer settings (none: <c>new JsonSerializer()</c>, which
/// ignores JsonConvert.DefaultSettings as DefaultTranscoder does) and the same writer defaults (instants as UTC
/// milliseconds). The reader differs from DefaultTranscoder's where it would fail or trust the payload: it reads the root
/// as a BSON array only when the target is a JSON array contract (a dictionary is a document, though it is IEnumerable),
/// never honours type names in the payload (TypeNameHandling.None), and bounds nesting depth.
/// </remarks>
internal sealed class EnyimBsonCodec : EnyimObjectCodec
{
    /// <summary>Writes and reads objects under 0x0101.</summary>
    public static readonly EnyimBsonCodec Objects = new(TranscoderFlags.EnyimObject);

    /// <summary>Reads the decimals older DefaultTranscoders stored as BSON under 0x010F.</summary>
    public static readonly EnyimBsonCodec LegacyDecimals = new(TranscoderFlags.EnyimDecimal);

    private const int MaxDepth = 64;

    private EnyimBsonCodec(uint flags) => Flags = flags;

    public override uint Flags { get; }

    public override string TranscoderName => "DefaultTranscoder";

    /// <summary>
    /// DefaultTranscoder has no format for our own natives (decimal, Guid, TimeSpan, ...: its BSON writer throws on a
    /// single value at the root) nor for a type whose JSON is a single value (BSON's root must be a document or an array).
    /// </summary>
    public override TranscoderException? Refusal(Type type)
    {
        if (NativeCodecs.TryGetWriter(type, out _))
        {
            return ThrowHelper.NoEnyimFormat(type, native: true);
        }

        try
        {
            return CanBeRoot(type) ? null : ThrowHelper.NoEnyimFormat(type, native: false);
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            return new TranscoderException($"Cannot store a {type} as EnyimMemcachedCore's BSON: {e.Message}", TranscoderErrorKind.Unstorable, null, type, e);
        }
    }

    /// <summary>
    /// Whether DefaultTranscoder can store a <paramref name="type"/> at all: BSON's root must be a document or an array,
    /// so a type whose JSON is a single value (a string, a number: Uri, BigInteger, a type with a TypeConverter) makes
    /// its Serialize throw.
    /// </summary>
    public static bool CanBeRoot(Type type) =>
        Bson.Writer.ContractResolver.ResolveContract(type) is not (JsonPrimitiveContract or JsonStringContract);

    public override ArraySegment<byte> Write(object value)
    {
        using var stream = new MemoryStream();
        using var writer = new BsonDataWriter(stream);

        // BSON is written whole when the root ends, before the writer closes the stream.
        Bson.Writer.Serialize(writer, value);
        writer.Flush();
        return new ArraySegment<byte>(stream.GetBuffer(), 0, (int)stream.Length);
    }

    public override object? Read(ReadOnlyMemory<byte> payload, Type? expected) => Read(payload, Flags, expected ?? typeof(object));

    /// <summary>Reads a BSON payload as <paramref name="type"/> (<see cref="object"/>: Newtonsoft's JSON tree, as DefaultTranscoder returns).</summary>
    public static object? Read(ReadOnlyMemory<byte> payload, uint flags, Type type)
    {
        try
        {
            ArraySegment<byte> segment = MemoryMarshal.TryGetArray(payload, out ArraySegment<byte> shared) ? shared : new ArraySegment<byte>(payload.ToArray());
            using var stream = new MemoryStream(segment.Array ?? [], segment.Offset, segment.Count, writable: false);
            using var reader = new BsonDataReader(stream)
            {
                ReadRootValueAsArray = type != typeof(object) && Bson.Reader.ContractResolver.ResolveContract(type) is JsonArrayContract,
                MaxDepth = MaxDepth,
            };
            return Bson.Reader.Deserialize(reader, type);
        }
        catch (Exception e) when (e is JsonException or InvalidCastException or ArgumentException or IOException or FormatException or OverflowException)
        {
            throw ThrowHelper.EnyimBsonReadFailed(flags, type, e);
        }
    }

    // Created on the first BSON entry written or read, so an application whose cache holds none never loads Newtonsoft.Json.
    private static class Bson
    {
        public static readonly JsonSerializer Writer = new();

        public static readonly JsonSerializer Reader = JsonSerializer.Create(new JsonSerializerSettings
        {
            TypeNameHandling = TypeNameHandling.None,
            MaxDepth = MaxDepth,
        });
    }
}
