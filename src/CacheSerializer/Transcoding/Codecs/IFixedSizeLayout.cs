namespace CacheSerializer.Transcoding.Codecs;

/// <summary>The bytes of a fixed-size type: how many, and how a value is written into and read from exactly that many.</summary>
/// <typeparam name="T">The type laid out.</typeparam>
internal interface IFixedSizeLayout<T>
{
    /// <summary>Gets the payload length, in bytes.</summary>
    static abstract int Size { get; }

    /// <summary>Writes <paramref name="value"/> into the first <see cref="Size"/> bytes of <paramref name="destination"/>.</summary>
    static abstract void Write(Span<byte> destination, T value);

    /// <summary>Reads a value from <paramref name="source"/>, which is exactly <see cref="Size"/> bytes long.</summary>
    static abstract T Read(ReadOnlySpan<byte> source);
}
