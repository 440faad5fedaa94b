namespace CacheSerializer.Transcoding.Codecs;

/// <summary>
/// Owns a flag this transcoder is configured not to read (the BinaryFormatter fallback when off, the engine's objects
/// while the engine is absent): such an item is ours, so it is refused with the reason rather than passed to the
/// foreign-item reader.
/// </summary>
internal sealed class RefusingReader : IValueReader
{
    private readonly Func<uint, Type?, object> _refuse;

    public RefusingReader(uint flags, Func<uint, Type?, object> refuse)
    {
        Flags = flags;
        _refuse = refuse;
    }

    public uint Flags { get; }

    public bool Compressible => true;

    public object? Read(ReadOnlyMemory<byte> payload, Type? expected) => _refuse(Flags, expected);
}
