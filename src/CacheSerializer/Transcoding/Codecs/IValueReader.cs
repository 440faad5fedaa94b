namespace CacheSerializer.Transcoding.Codecs;

/// <summary>The read side of a codec: turns a payload stored under <see cref="Flags"/> back into a value.</summary>
internal interface IValueReader
{
    /// <summary>Gets the flags this reader is found by (before the compression bit).</summary>
    uint Flags { get; }

    /// <summary>Gets whether an item under these flags may carry the compression bit.</summary>
    bool Compressible { get; }

    /// <summary>Reads a payload.</summary>
    /// <param name="payload">The payload, already decompressed.</param>
    /// <param name="expected">The type the caller asked for, or <see langword="null"/> for the non-generic Deserialize.</param>
    object? Read(ReadOnlyMemory<byte> payload, Type? expected);
}
