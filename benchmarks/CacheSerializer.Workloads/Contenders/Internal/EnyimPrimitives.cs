using System.Text;

namespace CacheSerializer.Workloads.Contenders.Internal;

/// <summary>
/// The native layout EnyimMemcachedCore's DefaultTranscoder gives primitives: flag <c>0x0100 | TypeCode</c>, little-endian
/// <see cref="BitConverter"/> bytes, UTF-8 strings, <see cref="DateTime.ToBinary"/>, raw byte arrays under 0xFA52.
/// </summary>
/// <remarks>
/// Written from reading cnblogs/EnyimMemcachedCore's src/Enyim.Caching/Memcached/Transcoders/DefaultTranscoder.cs (HEAD of
/// the mirror): the BSON contender and both BinaryFormatter contenders (Enyim's original DefaultTranscoder stored objects
/// with BinaryFormatter, as that file's doc comment still says) route primitives here, as those transcoders do, so their
/// primitive figures are the real cost of that path, boxing included.
/// </remarks>
internal static class EnyimPrimitives
{
    /// <summary>The flag of a value that went through the object path (TypeCode.Object | 0x0100).</summary>
    public const uint ObjectFlag = 0x0101;

    /// <summary>The flag of a byte array stored as is.</summary>
    public const uint RawFlag = 0xFA52;

    private const uint NullFlag = 0x0100 | 2; // TypeCode.DBNull marks null.

    /// <summary>Whether a Deserialize&lt;T&gt; goes through the primitive path, the test DefaultTranscoder applies.</summary>
    public static bool IsPrimitive(Type type) => Type.GetTypeCode(type) != TypeCode.Object || type == typeof(byte[]);

    /// <summary>Writes a primitive, byte array or null; returns <see langword="false"/> for anything else.</summary>
    public static bool TrySerialize(object? value, out CacheItem item)
    {
        switch (value)
        {
            case null: item = new CacheItem(NullFlag, new ArraySegment<byte>([])); return true;
            case byte[] bytes: item = new CacheItem(RawFlag, new ArraySegment<byte>(bytes)); return true;
            case ArraySegment<byte> segment: item = new CacheItem(RawFlag, segment); return true;
        }

        TypeCode code = Type.GetTypeCode(value.GetType());
        byte[]? data = code switch
        {
            TypeCode.String => Encoding.UTF8.GetBytes((string)value),
            TypeCode.Boolean => BitConverter.GetBytes((bool)value),
            TypeCode.SByte => [(byte)(sbyte)value],
            TypeCode.Byte => [(byte)value],
            TypeCode.Int16 => BitConverter.GetBytes((short)value),
            TypeCode.Int32 => BitConverter.GetBytes((int)value),
            TypeCode.Int64 => BitConverter.GetBytes((long)value),
            TypeCode.UInt16 => BitConverter.GetBytes((ushort)value),
            TypeCode.UInt32 => BitConverter.GetBytes((uint)value),
            TypeCode.UInt64 => BitConverter.GetBytes((ulong)value),
            TypeCode.Char => BitConverter.GetBytes((char)value),
            TypeCode.DateTime => BitConverter.GetBytes(((DateTime)value).ToBinary()),
            TypeCode.Double => BitConverter.GetBytes((double)value),
            TypeCode.Single => BitConverter.GetBytes((float)value),
            _ => null,
        };
        item = data is null ? default : new CacheItem(0x0100 | (uint)code, new ArraySegment<byte>(data));
        return data is not null;
    }

    /// <summary>Reads a primitive, byte array or null; returns <see langword="false"/> for an object entry.</summary>
    /// <exception cref="CacheSerializerException">The flags name no type DefaultTranscoder writes.</exception>
    /// <exception cref="ArgumentException">The payload is shorter than its type (callers wrap it).</exception>
    public static bool TryDeserialize(CacheItem item, out object? value)
    {
        ReadOnlySpan<byte> data = item.Data.AsSpan();
        if (item.Flags == RawFlag)
        {
            value = data.ToArray();
            return true;
        }

        var code = (TypeCode)(item.Flags & 0xFF);
        if (code is TypeCode.Object or TypeCode.Decimal)
        {
            // Decimal: older DefaultTranscoders stored decimals through the object path under TypeCode.Decimal.
            value = null;
            return false;
        }

        value = code switch
        {
            // Flag 0 (what an incr leaves) reads as a string, as DefaultTranscoder does.
            TypeCode.Empty => data.IsEmpty ? null : Encoding.UTF8.GetString(data),
            TypeCode.DBNull => null,
            TypeCode.String => Encoding.UTF8.GetString(data),
            TypeCode.Boolean => BitConverter.ToBoolean(data),
            TypeCode.SByte => (sbyte)data[0],
            TypeCode.Byte => data[0],
            TypeCode.Int16 => BitConverter.ToInt16(data),
            TypeCode.Int32 => BitConverter.ToInt32(data),
            TypeCode.Int64 => BitConverter.ToInt64(data),
            TypeCode.UInt16 => BitConverter.ToUInt16(data),
            TypeCode.UInt32 => BitConverter.ToUInt32(data),
            TypeCode.UInt64 => BitConverter.ToUInt64(data),
            TypeCode.Char => BitConverter.ToChar(data),
            TypeCode.DateTime => DateTime.FromBinary(BitConverter.ToInt64(data)),
            TypeCode.Double => BitConverter.ToDouble(data),
            TypeCode.Single => BitConverter.ToSingle(data),
            _ => throw new CacheSerializerException($"Flags 0x{item.Flags:X4} name no type DefaultTranscoder writes."),
        };
        return true;
    }
}
