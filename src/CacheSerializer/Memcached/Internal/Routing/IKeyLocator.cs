namespace CacheSerializer.Memcached.Internal.Routing;

/// <summary>A key placement: maps a key's bytes to the index of its server in the list the locator was built over.</summary>
internal interface IKeyLocator
{
    /// <summary>Returns the index of the server owning <paramref name="key"/>.</summary>
    int Locate(ReadOnlySpan<byte> key);
}
