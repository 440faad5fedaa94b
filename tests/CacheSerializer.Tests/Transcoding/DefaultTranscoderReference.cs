using System.Collections;
using Newtonsoft.Json;
using Newtonsoft.Json.Bson;

namespace CacheSerializer.Tests.Transcoding;

/// <summary>
/// What EnyimMemcachedCore's DefaultTranscoder does with an object, rebuilt from the same Newtonsoft calls, as the
/// reference the tests compare with: cnblogs/EnyimMemcachedCore at e383c4c742190da94007579ccb7377443021a7eb,
/// src/Enyim.Caching/Memcached/Transcoders/DefaultTranscoder.cs (<c>SerializeObject</c>, and <c>Deserialize&lt;T&gt;</c>'s
/// object path).
/// </summary>
internal static class DefaultTranscoderReference
{
    /// <summary>Its <c>SerializeObject</c>: <c>new JsonSerializer()</c> into a <c>BsonDataWriter</c>, the bytes stored under flags 0x0101.</summary>
    public static byte[] SerializeObject(object value)
    {
        using var stream = new MemoryStream();
        using var writer = new BsonDataWriter(stream);
        new JsonSerializer().Serialize(writer, value);
        return stream.ToArray();
    }

    /// <summary>Its <c>Deserialize&lt;T&gt;</c> of an object: <c>new JsonSerializer()</c> from a <c>BsonDataReader</c> whose
    /// root is an array for every IEnumerable <paramref name="type"/>.</summary>
    public static object? Deserialize(byte[] data, Type type)
    {
        using var stream = new MemoryStream(data);
        using var reader = new BsonDataReader(stream)
        {
            ReadRootValueAsArray = typeof(IEnumerable).IsAssignableFrom(type),
        };
        return new JsonSerializer().Deserialize(reader, type);
    }
}
