using System.Runtime.Serialization;
using System.Runtime.Serialization.Formatters.Binary;

namespace CacheSerializer.Transcoding.Codecs.Legacy;

/// <summary>
/// The opt-in fallback (flag 0xC542): a BinaryFormatter stream, written and read only for the types of
/// ProtobufTranscoderOptions.BinaryFormatterFallbackTypes. The <see cref="AllowlistBinder"/> checks every type the
/// stream names, on write (so nothing is stored that could not be read) and on read (before anything is created).
/// </summary>
/// <remarks>
/// The package does not reference System.Runtime.Serialization.Formatters: on .NET 9 and later the in-box
/// BinaryFormatter throws until the application adds that package and the EnableUnsafeBinaryFormatterSerialization
/// switch, and the error then says exactly that.
/// </remarks>
internal sealed class BinaryFormatterCodec : IValueWriter, IValueReader
{
    private readonly AllowlistBinder _binder;

    /// <param name="allowed">The allowlist.</param>
    /// <param name="flags">The flags of its streams: the fallback's own 0xC542 (compressible), or 0x0101 for
    /// EnyimMemcachedCore BinaryFormatterTranscoder's objects (<see cref="EnyimBinaryFormatterCodec"/>, never compressed).</param>
    public BinaryFormatterCodec(IEnumerable<Type> allowed, uint flags = TranscoderFlags.BinaryFormatter)
    {
        Flags = flags;
        _binder = new AllowlistBinder(allowed, flags);
    }

    public uint Flags { get; }

    public bool Compressible => Flags == TranscoderFlags.BinaryFormatter;

    public bool Allows(Type type) => _binder.Allows(type);

    public ArraySegment<byte> Write(object value)
    {
        using var stream = new MemoryStream();
        try
        {
            CreateFormatter(writing: true).Serialize(stream, value);
        }
        catch (Exception e) when (e is PlatformNotSupportedException or NotSupportedException)
        {
            throw ThrowHelper.BinaryFormatterUnavailable(Flags, value.GetType(), e);
        }
        catch (SerializationException e) when (e.InnerException is TranscoderException refused)
        {
            throw refused;
        }

        return new ArraySegment<byte>(stream.GetBuffer(), 0, (int)stream.Length);
    }

    public object? Read(ReadOnlyMemory<byte> payload, Type? expected)
    {
        using var stream = new MemoryStream(payload.ToArray(), writable: false);
        try
        {
            return CreateFormatter(writing: false).Deserialize(stream);
        }
        catch (Exception e) when (e is PlatformNotSupportedException or NotSupportedException)
        {
            throw ThrowHelper.BinaryFormatterUnavailable(Flags, expected, e);
        }
        catch (SerializationException e) when (e.InnerException is TranscoderException refused)
        {
            throw refused;
        }
    }

    // BinaryFormatter is obsolete (SYSLIB0011) because it can run code named by the payload; this codec exists only as
    // an explicit, allowlisted last resort, and every type a stream names goes through the binder first.
#pragma warning disable SYSLIB0011
    private BinaryFormatter CreateFormatter(bool writing) => new() { Binder = writing ? _binder.ForWriting : _binder };
#pragma warning restore SYSLIB0011
}
