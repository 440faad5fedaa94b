namespace CacheSerializer.Protobuf.Internal;

/// <summary>
/// The body sizes of the nested messages of one Serialize call, recorded by the measuring pass in pre-order and consumed
/// in the same order by the writing pass, so no sub-message is measured twice (Google's C# code measures each nested
/// message again when it writes it; protobuf-net and Java's generated code memoize sizes instead).
/// </summary>
/// <remarks>
/// Both passes visit the same values in the same order: includes before members, members and elements in order, and
/// skip the same defaults. One instance per thread is reused; a re-entrant Serialize (a getter that serializes) gets its own.
/// </remarks>
internal sealed class SizeCache
{
    private const int RetainLimit = 1 << 16;

    [ThreadStatic]
    private static SizeCache? t_idle;

    [ThreadStatic]
    private static SizeCache? t_current;

    private int[] _sizes = new int[32];
    private int _count;
    private int _cursor;

    public static SizeCache Current => t_current!;

    /// <summary>Makes a cache current for one Serialize call; returns the one it replaces (restore it with <see cref="End"/>).</summary>
    public static SizeCache? Begin()
    {
        var previous = t_current;
        var cache = t_idle ?? new SizeCache();
        t_idle = null;
        cache._count = 0;
        cache._cursor = 0;
        t_current = cache;
        return previous;
    }

    public static void End(SizeCache? previous)
    {
        var cache = t_current!;
        t_current = previous;
        if (cache._sizes.Length <= RetainLimit)
        {
            t_idle = cache;
        }
    }

    /// <summary>Reserves the next slot in pre-order (before the message's children are measured).</summary>
    public int Reserve()
    {
        if (_count == _sizes.Length)
        {
            Array.Resize(ref _sizes, _count * 2);
        }

        return _count++;
    }

    public void Set(int slot, int size) => _sizes[slot] = size;

    /// <summary>Returns the size of the next nested message to write.</summary>
    public int Next() => _sizes[_cursor++];
}
