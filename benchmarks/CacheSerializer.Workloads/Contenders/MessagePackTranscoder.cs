using MessagePack;

namespace CacheSerializer.Workloads.Contenders;

/// <summary>
/// MessagePack-CSharp 2.5 on the peer models (<see cref="Peers"/>), with its standard resolver: objects as arrays by
/// <c>[Key]</c> index, subtypes by <c>[Union]</c>, optionally its own LZ4 (<see cref="MessagePackCompression.Lz4BlockArray"/>).
/// Flag 0x0601 (plain) or 0x0602 (LZ4).
/// </summary>
/// <remarks>
/// The payload does not name its root type, so the caller names it: use <see cref="Deserialize{T}"/>; the non-generic read
/// throws. Primitives go through MessagePack too (an int is 1-5 bytes), as a MessagePack-only cache would store them.
/// </remarks>
public sealed class MessagePackTranscoder : ITranscoder
{
    /// <summary>The flag of a plain MessagePack payload.</summary>
    public const uint PlainFlag = 0x0601;

    /// <summary>The flag of a MessagePack payload in LZ4 block-array form.</summary>
    public const uint Lz4Flag = 0x0602;

    private readonly MessagePackSerializerOptions _options;
    private readonly uint _flag;

    /// <summary>Creates the transcoder.</summary>
    /// <param name="compression"><see cref="MessagePackCompression.None"/> or <see cref="MessagePackCompression.Lz4BlockArray"/>.</param>
    public MessagePackTranscoder(MessagePackCompression compression = MessagePackCompression.None)
    {
        _options = MessagePackSerializerOptions.Standard.WithCompression(compression);
        _flag = compression == MessagePackCompression.None ? PlainFlag : Lz4Flag;
    }

    /// <inheritdoc/>
    public CacheItem Serialize(object? value)
    {
        if (value is null)
        {
            return new CacheItem(_flag, new ArraySegment<byte>([MessagePackCode.Nil]));
        }

        try
        {
            return new CacheItem(_flag, new ArraySegment<byte>(MessagePackSerializer.Serialize(value.GetType(), value, _options)));
        }
        catch (Exception ex) when (ex is not (CacheSerializerException or OutOfMemoryException))
        {
            throw new CacheSerializerException($"MessagePack could not write a {value.GetType()}.", ex);
        }
    }

    /// <inheritdoc/>
    /// <exception cref="CacheSerializerException">Always: the payload does not say which type to read.</exception>
    public object? Deserialize(CacheItem item) =>
        throw new CacheSerializerException("MessagePack needs the type to read: call Deserialize<T>.");

    /// <inheritdoc/>
    public T? Deserialize<T>(CacheItem item)
    {
        if (item.Flags != _flag)
        {
            throw new CacheSerializerException($"MessagePack ({_options.Compression}) does not read {item}.");
        }

        try
        {
            return MessagePackSerializer.Deserialize<T>(item.Data.AsMemory(), _options);
        }
        catch (Exception ex) when (ex is not (CacheSerializerException or OutOfMemoryException))
        {
            throw new CacheSerializerException($"MessagePack could not read {item} as {typeof(T)}.", ex);
        }
    }
}
