using System.Collections.Concurrent;
using System.Runtime.Serialization;
using System.Xml;

namespace CacheSerializer.Workloads.Contenders;

/// <summary>
/// DataContractSerializer with the binary XML writer (<see cref="XmlDictionaryWriter.CreateBinaryWriter(Stream)"/>), the
/// WCF-era choice: every value, primitives included, under a flag of our own (0x0401).
/// </summary>
/// <remarks>
/// One serializer per root type, built once and cached, as any real user would. The payload names its root contract but
/// the serializer is chosen by type, so the caller names the type: use <see cref="Deserialize{T}"/>; the non-generic read throws.
/// </remarks>
public sealed class DataContractBinaryTranscoder : ITranscoder
{
    /// <summary>The flag of a binary XML payload.</summary>
    public const uint BinaryXmlFlag = 0x0401;

    private readonly ConcurrentDictionary<Type, DataContractSerializer> _serializers = new();

    /// <inheritdoc/>
    public CacheItem Serialize(object? value)
    {
        if (value is null)
        {
            throw new CacheSerializerException("DataContractSerializer chooses its serializer by type and cannot store a bare null.");
        }

        try
        {
            var stream = new MemoryStream();
            using (var writer = XmlDictionaryWriter.CreateBinaryWriter(stream, dictionary: null, session: null, ownsStream: false))
            {
                SerializerFor(value.GetType()).WriteObject(writer, value);
            }

            return new CacheItem(BinaryXmlFlag, new ArraySegment<byte>(stream.GetBuffer(), 0, (int)stream.Length));
        }
        catch (Exception ex) when (ex is not CacheSerializerException)
        {
            throw new CacheSerializerException($"DataContractSerializer could not write a {value.GetType()}.", ex);
        }
    }

    /// <inheritdoc/>
    /// <exception cref="CacheSerializerException">Always: the serializer is chosen by type.</exception>
    public object? Deserialize(CacheItem item) =>
        throw new CacheSerializerException("DataContractSerializer needs the type to read: call Deserialize<T>.");

    /// <inheritdoc/>
    public T? Deserialize<T>(CacheItem item)
    {
        if (item.Flags != BinaryXmlFlag)
        {
            throw new CacheSerializerException($"DataContractSerializer does not read {item}.");
        }

        try
        {
            using var reader = XmlDictionaryReader.CreateBinaryReader(
                item.Data.Array!, item.Data.Offset, item.Data.Count, XmlDictionaryReaderQuotas.Max);
            return (T?)SerializerFor(typeof(T)).ReadObject(reader);
        }
        catch (Exception ex) when (ex is not CacheSerializerException)
        {
            throw new CacheSerializerException($"DataContractSerializer could not read {item} as {typeof(T)}.", ex);
        }
    }

    private DataContractSerializer SerializerFor(Type type) => _serializers.GetOrAdd(type, static t => new DataContractSerializer(t));
}
