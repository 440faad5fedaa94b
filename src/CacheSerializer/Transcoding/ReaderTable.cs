using System.Collections.Frozen;
using CacheSerializer.Transcoding.Codecs;

namespace CacheSerializer.Transcoding;

/// <summary>Finds the reader of an item by its flags alone (never by anything in the payload).</summary>
internal sealed class ReaderTable
{
    private readonly FrozenDictionary<uint, IValueReader> _readers;

    public ReaderTable(IEnumerable<IValueReader> readers) => _readers = readers.ToFrozenDictionary(reader => reader.Flags);

    /// <summary>
    /// Finds the reader of <paramref name="flags"/>; <paramref name="compressed"/> tells whether the compression bit was
    /// set on a compressible flag. Returns <see langword="null"/> for flags this transcoder does not own.
    /// </summary>
    public IValueReader? Find(uint flags, out bool compressed)
    {
        compressed = false;
        if (_readers.TryGetValue(flags, out IValueReader? reader))
        {
            return reader;
        }

        if ((flags & TranscoderFlags.CompressedBit) != 0
            && _readers.TryGetValue(flags & ~TranscoderFlags.CompressedBit, out reader)
            && reader.Compressible)
        {
            compressed = true;
            return reader;
        }

        return null;
    }
}
