using System.Collections.Frozen;
using System.Diagnostics.CodeAnalysis;
using CacheSerializer.Transcoding.Codecs;

namespace CacheSerializer.Transcoding;

/// <summary>The native primitives: their writers by exact type and their readers by flags.</summary>
internal static class NativeCodecs
{
    private static readonly FrozenDictionary<Type, IValueWriter> Writers = new Dictionary<Type, IValueWriter>
    {
        [typeof(bool)] = BooleanCodec.Instance,
        [typeof(char)] = CharCodec.Instance,
        [typeof(sbyte)] = SByteCodec.Instance,
        [typeof(byte)] = ByteCodec.Instance,
        [typeof(short)] = Int16Codec.Instance,
        [typeof(ushort)] = UInt16Codec.Instance,
        [typeof(int)] = Int32Codec.Instance,
        [typeof(uint)] = UInt32Codec.Instance,
        [typeof(long)] = Int64Codec.Instance,
        [typeof(ulong)] = UInt64Codec.Instance,
        [typeof(float)] = SingleCodec.Instance,
        [typeof(double)] = DoubleCodec.Instance,
        [typeof(DateTime)] = DateTimeCodec.Instance,
        [typeof(string)] = StringCodec.Instance,
        [typeof(byte[])] = ByteArrayCodec.Instance,
        [typeof(ArraySegment<byte>)] = ByteSegmentCodec.Instance,
        [typeof(decimal)] = DecimalCodec.Instance,
        [typeof(Guid)] = GuidCodec.Instance,
        [typeof(TimeSpan)] = TimeSpanCodec.Instance,
        [typeof(DateTimeOffset)] = DateTimeOffsetCodec.Instance,
        [typeof(DateOnly)] = DateOnlyCodec.Instance,
        [typeof(TimeOnly)] = TimeOnlyCodec.Instance,
        [typeof(Half)] = HalfCodec.Instance,
        [typeof(Int128)] = Int128Codec.Instance,
        [typeof(UInt128)] = UInt128Codec.Instance,
    }.ToFrozenDictionary();

    /// <summary>Every native reader; 0xFA52 reads as byte[] (the segment writer shares the flag).</summary>
    public static IEnumerable<IValueReader> Readers =>
    [
        NullCodec.Instance,
        StringCodec.Legacy,
        .. Writers.Values.OfType<IValueReader>().Where(reader => reader is not ByteSegmentCodec),
    ];

    /// <summary>Finds the writer of a native type; an enum is written by the codec of its underlying type.</summary>
    public static bool TryGetWriter(Type type, [NotNullWhen(true)] out IValueWriter? writer) =>
        Writers.TryGetValue(type.IsEnum ? Enum.GetUnderlyingType(type) : type, out writer);
}
