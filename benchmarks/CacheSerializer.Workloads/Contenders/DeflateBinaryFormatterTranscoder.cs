using System.IO.Compression;
using System.Runtime.Serialization.Formatters.Binary;
using CacheSerializer.Workloads.Contenders.Internal;

namespace CacheSerializer.Workloads.Contenders;

/// <summary>
/// The production team's original: primitives natively, every other object through <see cref="BinaryFormatter"/> and
/// then <see cref="DeflateStream"/> at its default (optimal) level, under a flag of our own (0x0201).
/// </summary>
/// <remarks>Needs what <see cref="BinaryFormatterTranscoder"/> needs. Every object is compressed, however small, as theirs was.</remarks>
public sealed class DeflateBinaryFormatterTranscoder : ITranscoder
{
    /// <summary>The flag of a compressed BinaryFormatter payload: no other transcoder's, so entries are never confused.</summary>
    public const uint DeflatedObjectFlag = 0x0201;

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
            using (var deflate = new DeflateStream(stream, CompressionLevel.Optimal, leaveOpen: true))
            {
                new BinaryFormatter().Serialize(deflate, value!);
            }

            return new CacheItem(DeflatedObjectFlag, new ArraySegment<byte>(stream.GetBuffer(), 0, (int)stream.Length));
        }
        catch (Exception ex) when (ex is not CacheSerializerException)
        {
            throw new CacheSerializerException($"BinaryFormatter + Deflate could not write a {value!.GetType()}.", ex);
        }
    }

    /// <inheritdoc/>
    public object? Deserialize(CacheItem item)
    {
        try
        {
            if (item.Flags != DeflatedObjectFlag && EnyimPrimitives.TryDeserialize(item, out object? value))
            {
                return value;
            }

            if (item.Flags != DeflatedObjectFlag)
            {
                throw new CacheSerializerException($"BinaryFormatter + Deflate does not read {item}.");
            }

            using var deflate = new DeflateStream(new MemoryStream(item.Data.Array!, item.Data.Offset, item.Data.Count, writable: false), CompressionMode.Decompress);
            return new BinaryFormatter().Deserialize(deflate);
        }
        catch (Exception ex) when (ex is not CacheSerializerException)
        {
            throw new CacheSerializerException($"BinaryFormatter + Deflate could not read {item}.", ex);
        }
    }

    /// <inheritdoc/>
    public T? Deserialize<T>(CacheItem item) => Cast.To<T>(Deserialize(item), item, "BinaryFormatter + Deflate");
}
