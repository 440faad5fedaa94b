using System.Runtime.Serialization.Formatters.Binary;
using CacheSerializer.Workloads.Contenders.Internal;

namespace CacheSerializer.Workloads.Contenders;

/// <summary>
/// Enyim's original DefaultTranscoder: primitives natively, every other object through <see cref="BinaryFormatter"/>
/// under flag 0x0101; the payload names its own types, so the non-generic read returns the stored runtime type.
/// </summary>
/// <remarks>
/// On .NET 9 and later this needs the System.Runtime.Serialization.Formatters package and, in the application that runs
/// it, <c>&lt;EnableUnsafeBinaryFormatterSerialization&gt;true&lt;/EnableUnsafeBinaryFormatterSerialization&gt;</c>.
/// No binder restricts what a payload may name: this is the unsafe original, measured, never to be copied.
/// </remarks>
public sealed class BinaryFormatterTranscoder : ITranscoder
{
    /// <inheritdoc/>
    public CacheItem Serialize(object? value)
    {
        if (EnyimPrimitives.TrySerialize(value, out CacheItem item))
        {
            return item;
        }

        try
        {
            var stream = new MemoryStream();
            new BinaryFormatter().Serialize(stream, value!);
            return new CacheItem(EnyimPrimitives.ObjectFlag, new ArraySegment<byte>(stream.GetBuffer(), 0, (int)stream.Length));
        }
        catch (Exception ex) when (ex is not CacheSerializerException)
        {
            throw new CacheSerializerException($"BinaryFormatter could not write a {value!.GetType()}.", ex);
        }
    }

    /// <inheritdoc/>
    public object? Deserialize(CacheItem item)
    {
        try
        {
            if (EnyimPrimitives.TryDeserialize(item, out object? value))
            {
                return value;
            }

            using var stream = new MemoryStream(item.Data.Array!, item.Data.Offset, item.Data.Count, writable: false);
            return new BinaryFormatter().Deserialize(stream);
        }
        catch (Exception ex) when (ex is not CacheSerializerException)
        {
            throw new CacheSerializerException($"BinaryFormatter could not read {item}.", ex);
        }
    }

    /// <inheritdoc/>
    public T? Deserialize<T>(CacheItem item) => Cast.To<T>(Deserialize(item), item, "BinaryFormatter");
}
