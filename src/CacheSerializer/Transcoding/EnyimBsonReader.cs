using CacheSerializer.Transcoding.Codecs.Legacy;

namespace CacheSerializer.Transcoding;

/// <summary>
/// The default foreign-item reader: reads the object entries EnyimMemcachedCore's DefaultTranscoder wrote (flag 0x0101,
/// and 0x010F from its older decimals), so an app's warm cache keeps working the day it switches. It only reads:
/// ProtobufTranscoder writes (in the migration phase, these same BSON entries: <see cref="EnyimBsonCodec"/>).
/// </summary>
internal sealed class EnyimBsonReader : ITranscoder
{
    public static readonly EnyimBsonReader Instance = new();

    private EnyimBsonReader()
    {
    }

    public CacheItem Serialize(object? value) =>
        throw ThrowHelper.EnyimBsonWriteRefused(value?.GetType());

    public object? Deserialize(CacheItem item) => Read(item, typeof(object));

    public T? Deserialize<T>(CacheItem item) => Read(item, typeof(T)) is T value ? value : default;

    private static object? Read(CacheItem item, Type type) =>
        item.Flags is TranscoderFlags.EnyimObject or TranscoderFlags.EnyimDecimal
            ? EnyimBsonCodec.Read(item.Data, item.Flags, type)
            : ThrowHelper.ThrowNotEnyimObject(item.Flags, type);
}
