namespace CacheSerializer;

/// <summary>
/// How <see cref="ProtobufTranscoder"/> writes objects (every value that is not a native type or an application
/// codec's): <see cref="ProtobufTranscoderOptions.ObjectFormat"/>. Items of either format read back whatever the setting.
/// </summary>
/// <remarks>docs/migrating-from-enyim.md tells when to use each; docs/format.md, "EnyimMemcachedCore objects", has the bytes.</remarks>
public enum TranscoderObjectFormat
{
    /// <summary>protobuf-net (or a Google.Protobuf message's own encoding) behind a type header, flags 0xC540-0xC541. The default.</summary>
    Protobuf = 0,

    /// <summary>
    /// The migration phase from EnyimMemcachedCore: objects are written exactly as its <c>DefaultTranscoder</c> writes
    /// them (flags 0x0101, the BSON a default Newtonsoft.Json <c>JsonSerializer</c> writes), so its applications still
    /// sharing the cache read them. The values it has no format for (decimal, Guid, TimeSpan, DateTimeOffset, DateOnly,
    /// TimeOnly, Half, Int128, UInt128, and objects whose JSON is not a document or an array) are refused at Serialize.
    /// Objects get BSON's fidelity, not protobuf's (docs/format.md). An EnyimMemcachedCore section naming
    /// MessagePackTranscoder or BinaryFormatterTranscoder writes that transcoder's objects under 0x0101 instead (docs/format.md,
    /// "MessagePackTranscoder and BinaryFormatterTranscoder objects"). Set <see cref="Protobuf"/> once no EnyimMemcachedCore
    /// application is left.
    /// </summary>
    EnyimBson = 1,
}
