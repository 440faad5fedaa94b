using CacheSerializer.Transcoding;

namespace CacheSerializer;

/// <summary>
/// An application's own codec for one type, registered in <see cref="ProtobufTranscoderOptions.Codecs"/>; it wins over
/// every built-in codec for exactly that type. Derive from <see cref="CacheCodec{T}"/>.
/// </summary>
/// <remarks>
/// Each codec owns one flag of the application range 0xC620-0xC67F (docs/format.md); the flag is stored with every
/// item, so a codec keeps its flag and its byte layout for as long as entries written with it may be in the cache.
/// A codec is called concurrently from every thread using the transcoder: it must be thread-safe.
/// </remarks>
public abstract class CacheCodec
{
    /// <summary>The lowest flag an application codec may use.</summary>
    public const uint FirstFlag = TranscoderFlags.UserFirst;

    /// <summary>The highest flag an application codec may use.</summary>
    public const uint LastFlag = TranscoderFlags.UserLast;

    private protected CacheCodec(uint flags)
    {
        if (flags is < FirstFlag or > LastFlag)
        {
            throw new ArgumentOutOfRangeException(nameof(flags), flags, $"An application codec's flag is 0x{FirstFlag:X4}-0x{LastFlag:X4}; 0x{flags:X4} is outside.");
        }

        Flags = flags;
    }

    /// <summary>Gets the flag this codec's items are stored under (0xC620-0xC67F).</summary>
    public uint Flags { get; }

    /// <summary>Gets the type this codec writes and reads.</summary>
    public abstract Type Type { get; }

    internal abstract ArraySegment<byte> WriteObject(object value);

    internal abstract object? ReadObject(ReadOnlySpan<byte> payload);
}
