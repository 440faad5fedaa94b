using System.Collections.Concurrent;

namespace CacheSerializer.Memcached.Internal.Hybrid;

/// <summary>The HybridCache's in-process level (L1): at most <see cref="MaxEntries"/> entries, each until its local
/// expiration, dropped by the invalidation log's poller and by this process's own removals.</summary>
/// <remarks>
/// A copy read from memcached before a removal and stored here after the poller applied that removal would outlive it,
/// so every drop is remembered by this process's own drop count (<see cref="Epoch"/>: the log's sequences are per replica,
/// issue 44) in a fixed table of hash buckets, and a copy is stored only if no drop of its bucket came after the epoch
/// its read started at (a bucket shared with another key only costs a copy). The store writes, then looks again: a drop
/// that raced it removes the copy either way.
/// </remarks>
internal sealed class LocalCache(int maxEntries)
{
    private const int Buckets = 4096;

    private readonly ConcurrentDictionary<string, LocalEntry> _entries = new(StringComparer.Ordinal);
    private readonly long[] _droppedAt = new long[Buckets];
    private readonly Lock _evicting = new();
    private int _count;
    private long _epoch;
    private long _clearedAt;

    internal int MaxEntries => maxEntries;

    /// <summary>Gets about how many entries are held.</summary>
    internal int Count => Volatile.Read(ref _count);

    /// <summary>Gets how many drops this process made: a read that starts now passes it to <see cref="Set"/>.</summary>
    internal long Epoch => Volatile.Read(ref _epoch);

    /// <summary>Moves the epoch on and returns it: a read that started before has an earlier one.</summary>
    internal long Next() => Interlocked.Increment(ref _epoch);

    internal bool TryGet(string key, out LocalEntry entry)
    {
        if (!_entries.TryGetValue(key, out entry!))
        {
            return false;
        }

        if (entry.ExpiresAt > Environment.TickCount64)
        {
            return true;
        }

        Remove(key, entry);
        return false;
    }

    /// <summary>Stores a copy read (or made) by a call whose read of memcached started at <see cref="Epoch"/>
    /// <paramref name="readAt"/>; not stored when the key was dropped since.</summary>
    internal void Set(string key, LocalEntry entry, long readAt)
    {
        if (DroppedAfter(key, readAt))
        {
            return;
        }

        if (Count >= maxEntries)
        {
            Evict();
        }

        if (_entries.TryAdd(key, entry))
        {
            Interlocked.Increment(ref _count);
        }
        else
        {
            _entries[key] = entry;
        }

        if (DroppedAfter(key, readAt))
        {
            Remove(key, entry);
        }
    }

    /// <summary>Drops a key: its copy, and any copy read before now; returns the drop's epoch.</summary>
    internal long Drop(string key)
    {
        long epoch = Interlocked.Increment(ref _epoch);
        ref long slot = ref _droppedAt[Bucket(key)];
        long seen;
        while ((seen = Volatile.Read(ref slot)) < epoch && Interlocked.CompareExchange(ref slot, epoch, seen) != seen)
        {
        }

        if (_entries.TryRemove(key, out _))
        {
            Interlocked.Decrement(ref _count);
        }

        return epoch;
    }

    /// <summary>Drops every copy, and every copy read before now.</summary>
    internal void Clear()
    {
        long epoch = Interlocked.Increment(ref _epoch);
        long seen;
        while ((seen = Volatile.Read(ref _clearedAt)) < epoch && Interlocked.CompareExchange(ref _clearedAt, epoch, seen) != seen)
        {
        }

        foreach (string key in _entries.Keys)
        {
            if (_entries.TryRemove(key, out _))
            {
                Interlocked.Decrement(ref _count);
            }
        }
    }

    internal void Remove(string key, LocalEntry entry)
    {
        if (_entries.TryRemove(new KeyValuePair<string, LocalEntry>(key, entry)))
        {
            Interlocked.Decrement(ref _count);
        }
    }

    private static int Bucket(string key) => (int)((uint)StringComparer.Ordinal.GetHashCode(key) % Buckets);

    private bool DroppedAfter(string key, long readAt) => Volatile.Read(ref _droppedAt[Bucket(key)]) > readAt || Volatile.Read(ref _clearedAt) > readAt;

    /// <summary>Makes room for a tenth of the limit: expired entries first, then any (no recency is tracked, so that a
    /// hit writes nothing).</summary>
    private void Evict()
    {
        lock (_evicting)
        {
            int target = maxEntries - Math.Max(1, maxEntries / 10);
            long now = Environment.TickCount64;
            foreach (KeyValuePair<string, LocalEntry> pair in _entries)
            {
                if (pair.Value.ExpiresAt <= now)
                {
                    Remove(pair.Key, pair.Value);
                }
            }

            foreach (KeyValuePair<string, LocalEntry> pair in _entries)
            {
                if (Count <= target)
                {
                    break;
                }

                Remove(pair.Key, pair.Value);
            }
        }
    }
}

/// <summary>One in-process copy: the entry as memcached holds it, the value itself when its type may be shared, the CAS
/// token it was read with (0 when unknown: the strict check then reads it again), when it expires
/// (<see cref="Environment.TickCount64"/>), whether it was read from the key's gutter copy (whose token it is), and the
/// epoch its read started at (<see cref="LocalCache.Epoch"/>).</summary>
internal sealed record LocalEntry(HybridEnvelope Envelope, object? Shared, ulong Cas, long ExpiresAt, bool FromGutter = false, long ReadAt = long.MinValue);
