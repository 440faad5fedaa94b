namespace CacheSerializer.Memcached.Internal.Protocol;

/// <summary>The recache return flags memcached adds to an <c>mg</c> reply (doc/protocol.txt, "Meta Get"), whatever
/// flags the request asked for.</summary>
/// <remarks>
/// memcached 1.6.18 appends them after the requested flags, <c>Z</c> before <c>X</c> before <c>W</c>, and never
/// <c>W</c> with <c>Z</c>: <c>VA 0 f0 c1 O2 W</c> (this get created the placeholder of a miss), <c>VA 0 f0 O3 Z</c> (a
/// placeholder whose win went to another get), <c>VA 2 f7 O4 X W</c> (an invalidated item; this get is the first to
/// see it). An item marked stale hands its win to <em>any</em> <c>mg</c>, also one without <c>N</c> or <c>R</c>
/// (checked on 1.6.18).
/// </remarks>
[Flags]
internal enum RecacheFlags : byte
{
    /// <summary>No recache flag: a plain hit.</summary>
    None = 0,

    /// <summary><c>W</c>: this get won the right to recache the item (a vivified miss, a TTL below <c>R</c>, or the
    /// first get of a stale item). memcached then marks the item so that no other get wins until it is replaced.</summary>
    Won = 1,

    /// <summary><c>X</c>: the item was marked stale (<c>md ... I</c>); its value is the old one.</summary>
    Stale = 2,

    /// <summary><c>Z</c>: another get already won; that client is recaching the item.</summary>
    WinSent = 4,
}
