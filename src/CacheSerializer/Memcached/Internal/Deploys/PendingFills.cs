using System.Collections.Concurrent;

namespace CacheSerializer.Memcached.Internal.Deploys;

/// <summary>The fills a client owes a copy: a read of a key as a type found another build's item under a CAS token,
/// and the fill that follows (an add) stores its value as this build's copy bound to that token.</summary>
internal sealed class PendingFills
{
    /// <summary>The most fills the client remembers at once; beyond it, it forgets them all (a copy then waits for the next miss).</summary>
    internal const int MaxPending = 100_000;

    private readonly ConcurrentDictionary<(string Key, Type Type), ulong> _pending = new();

    // About how many fills are remembered: ConcurrentDictionary.Count takes every lock of the dictionary, too much for
    // each read of another build's item during a deploy. Only the bound uses it, so an approximate count will do.
    private int _count;

    /// <summary>Remembers that a read of <paramref name="key"/> as a <paramref name="type"/> found an item it could not read
    /// under CAS token <paramref name="cas"/>, so that the fill which follows is stored as a copy bound to it.</summary>
    internal void MissedOtherBuild(string key, Type type, ulong cas)
    {
        if (Volatile.Read(ref _count) >= MaxPending)
        {
            _pending.Clear();
            Volatile.Write(ref _count, 0);
        }

        if (_pending.TryAdd((key, type), cas))
        {
            Interlocked.Increment(ref _count);
        }
        else
        {
            _pending[(key, type)] = cas;
        }
    }

    /// <summary>Tells whether a read of <paramref name="key"/> as a <paramref name="type"/> found another build's item and
    /// no fill has taken it yet; without a remembered miss at all (contracts agree), without looking the key up. The count
    /// is approximate: a rare miss it lost (at its bound) only costs that fill its copy.</summary>
    internal bool Remembers(string key, Type type) => Volatile.Read(ref _count) != 0 && _pending.ContainsKey((key, type));

    /// <summary>Takes the CAS token a read of <paramref name="key"/> as a <paramref name="type"/> saw on another build's item.</summary>
    internal bool TryTakeMiss(string key, Type type, out ulong cas)
    {
        if (!_pending.TryRemove((key, type), out cas))
        {
            return false;
        }

        Interlocked.Decrement(ref _count);
        return true;
    }
}
