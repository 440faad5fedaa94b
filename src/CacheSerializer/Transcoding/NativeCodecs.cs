using System.Collections.Frozen;
using System.Diagnostics.CodeAnalysis;
using System.Numerics;
using CacheSerializer.Transcoding.Codecs;
using CacheSerializer.Transcoding.Codecs.Primitive;
using CacheSerializer.Transcoding.Codecs.Temporal;

namespace CacheSerializer.Transcoding;

/// <summary>The native primitives: their writers by exact type and their readers by flags.</summary>
internal static class NativeCodecs
{
    private static readonly FrozenDictionary<Type, IValueWriter> Writers = new Dictionary<Type, IValueWriter>
    {
        [typeof(bool)] = new FixedSizeCodec<bool, BooleanLayout>(TranscoderFlags.Boolean),
        [typeof(char)] = Number<char>(TranscoderFlags.Char),
        [typeof(sbyte)] = Number<sbyte>(TranscoderFlags.SByte),
        [typeof(byte)] = Number<byte>(TranscoderFlags.Byte),
        [typeof(short)] = Number<short>(TranscoderFlags.Int16),
        [typeof(ushort)] = Number<ushort>(TranscoderFlags.UInt16),
        [typeof(int)] = Number<int>(TranscoderFlags.Int32),
        [typeof(uint)] = Number<uint>(TranscoderFlags.UInt32),
        [typeof(long)] = Number<long>(TranscoderFlags.Int64),
        [typeof(ulong)] = Number<ulong>(TranscoderFlags.UInt64),
        [typeof(float)] = Number<float>(TranscoderFlags.Single),
        [typeof(double)] = Number<double>(TranscoderFlags.Double),
        [typeof(DateTime)] = new FixedSizeCodec<DateTime, DateTimeLayout>(TranscoderFlags.DateTime),
        [typeof(string)] = StringCodec.Instance,
        [typeof(byte[])] = ByteArrayCodec.Instance,
        [typeof(ArraySegment<byte>)] = ByteSegmentCodec.Instance,
        [typeof(decimal)] = new FixedSizeCodec<decimal, DecimalLayout>(TranscoderFlags.Decimal),
        [typeof(Guid)] = new FixedSizeCodec<Guid, GuidLayout>(TranscoderFlags.Guid),
        [typeof(TimeSpan)] = new FixedSizeCodec<TimeSpan, TimeSpanLayout>(TranscoderFlags.TimeSpan),
        [typeof(DateTimeOffset)] = new FixedSizeCodec<DateTimeOffset, DateTimeOffsetLayout>(TranscoderFlags.DateTimeOffset),
        [typeof(DateOnly)] = new FixedSizeCodec<DateOnly, DateOnlyLayout>(TranscoderFlags.DateOnly),
        [typeof(TimeOnly)] = new FixedSizeCodec<TimeOnly, TimeOnlyLayout>(TranscoderFlags.TimeOnly),
        [typeof(Half)] = Number<Half>(TranscoderFlags.Half),
        [typeof(Int128)] = Number<Int128>(TranscoderFlags.Int128),
        [typeof(UInt128)] = Number<UInt128>(TranscoderFlags.UInt128),
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

    // A binary number's codec: its little-endian bytes (LittleEndian<T>).
    private static FixedSizeCodec<T, LittleEndian<T>> Number<T>(uint flags)
        where T : unmanaged, IBinaryNumber<T> => new(flags);
}
