using System.Text;

namespace CacheSerializer.Memcached.Internal;

/// <summary>Stores byte arrays as they are and strings as UTF-8; nothing else.</summary>
/// <remarks>
/// The flags are EnyimMemcachedCore's DefaultTranscoder values (0xFA52 raw bytes, 0x0112 string, 0x0102 null), so
/// items written by either client read back in the other.
/// </remarks>
internal sealed class RawTranscoder : ITranscoder
{
    internal const uint RawBytesFlags = 0xFA52;
    internal const uint StringFlags = 0x0112;
    internal const uint NullFlags = 0x0102;

    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    public CacheItem Serialize(object? value) => value switch
    {
        null => new CacheItem(NullFlags, ArraySegment<byte>.Empty),
        byte[] bytes => new CacheItem(RawBytesFlags, new ArraySegment<byte>(bytes)),
        ArraySegment<byte> segment => new CacheItem(RawBytesFlags, segment),
        string text => new CacheItem(StringFlags, new ArraySegment<byte>(StrictUtf8.GetBytes(text))),
        _ => throw new CacheSerializerException(
            $"The raw transcoder stores only byte[], ArraySegment<byte> and string values, not {value.GetType()}; configure MemcachedClientOptions.Transcoder."),
    };

    public object? Deserialize(CacheItem item) => item.Flags switch
    {
        NullFlags => null,
        RawBytesFlags => WholeArray(item.Data) ?? item.Data.AsSpan().ToArray(),
        StringFlags => DecodeString(item),
        _ => throw new CacheSerializerException(
            $"The raw transcoder cannot read an item with flags 0x{item.Flags:X4} ({item.Data.Count} bytes); it reads 0xFA52 (bytes), 0x0112 (string) and 0x0102 (null)."),
    };

    public T? Deserialize<T>(CacheItem item)
    {
        if (typeof(T) == typeof(ArraySegment<byte>) && item.Flags == RawBytesFlags)
        {
            return (T)(object)new ArraySegment<byte>(item.Data.AsSpan().ToArray());
        }

        object? value = Deserialize(item);
        if (value is null)
        {
            return default;
        }

        if (value is T typed)
        {
            return typed;
        }

        throw new CacheSerializerException(
            $"The item (flags 0x{item.Flags:X4}) holds a {value.GetType()}, not a {typeof(T)}.");
    }

    /// <summary>The client hands every read its own exact-size array: return it rather than copy it again.</summary>
    private static byte[]? WholeArray(ArraySegment<byte> data) =>
        data.Array is { } array && data.Offset == 0 && data.Count == array.Length ? array : null;

    private static string DecodeString(CacheItem item)
    {
        try
        {
            return StrictUtf8.GetString(item.Data.AsSpan());
        }
        catch (DecoderFallbackException ex)
        {
            throw new CacheSerializerException($"The item's flags (0x{item.Flags:X4}) say UTF-8 string but its {item.Data.Count} bytes are not valid UTF-8.", ex);
        }
    }
}
