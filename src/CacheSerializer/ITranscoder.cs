namespace CacheSerializer;

/// <summary>Turns values into <see cref="CacheItem"/>s and back; the memcached client stores whatever a transcoder produces.</summary>
/// <remarks>The shape matches EnyimMemcachedCore's <c>ITranscoder</c>. Implementations must be thread-safe.</remarks>
public interface ITranscoder
{
    /// <summary>Serializes a value into flags and payload bytes.</summary>
    /// <param name="value">The value; <see langword="null"/> is a value like any other where the transcoder supports it.</param>
    /// <returns>The item to store.</returns>
    /// <exception cref="CacheSerializerException">The value cannot be stored faithfully.</exception>
    CacheItem Serialize(object? value);

    /// <summary>Deserializes an item into the object it was written from.</summary>
    /// <param name="item">The stored item.</param>
    /// <returns>The value, of the runtime type it was stored as.</returns>
    /// <exception cref="CacheSerializerException">The item is malformed or names a type this transcoder will not read.
    /// <see cref="ProtobufTranscoder"/> throws <see cref="TranscoderException"/>, whose <see cref="TranscoderException.Kind"/>
    /// says why, and <see cref="ContractMismatchException"/> for an item written under another contract of its type (another
    /// build, during a rolling deploy): a client of its own should read these as misses, as the memcached client does.</exception>
    object? Deserialize(CacheItem item);

    /// <summary>Deserializes an item into a <typeparamref name="T"/>.</summary>
    /// <typeparam name="T">The expected type.</typeparam>
    /// <param name="item">The stored item.</param>
    /// <returns>The value.</returns>
    /// <exception cref="CacheSerializerException">The item is malformed, or holds a value that is not a <typeparamref name="T"/>
    /// (<see cref="ProtobufTranscoder"/>: <see cref="TranscoderException"/> with its <see cref="TranscoderException.Kind"/>, or
    /// <see cref="ContractMismatchException"/> for an item written under another contract).</exception>
    T? Deserialize<T>(CacheItem item);
}
