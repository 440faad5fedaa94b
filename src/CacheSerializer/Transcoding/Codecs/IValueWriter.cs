namespace CacheSerializer.Transcoding.Codecs;

/// <summary>The write side of a codec: turns a value of the codec's type into a payload stored under <see cref="Flags"/>.</summary>
internal interface IValueWriter
{
    /// <summary>Gets the flags the payload is stored under (before the compression bit).</summary>
    uint Flags { get; }

    /// <summary>Gets whether the payload may be stored compressed (fixed-size payloads never are).</summary>
    bool Compressible { get; }

    /// <summary>Writes the payload; the result may share the value's own array (raw bytes are not copied).</summary>
    ArraySegment<byte> Write(object value);
}
