using System.Collections.Concurrent;

namespace CacheSerializer.Memcached.Internal.Hybrid;

/// <summary>The HybridCache's in-process level (L1): at most <see cref="MaxEntries"/> entries, each until its local
/// expiration, dropped by the invalidation log's poller and by this process's own removals.</summary>
/// <remarks>
/// A copy read from memcached before a removal and stored here after the poller applied that removal would outlive it,
/// so every drop is remembered by sequence in a fixed table of hash buckets, and a copy is stored only if no drop of its
/// bucket came after the sequence its read started at (a bucket shared with another key only costs a copy). The store
/// writes, then looks again: a drop that raced it removes the copy either way.
/// </remarks>
internal sealed class LocalCache(int maxEntries)
{
    private const int Buckets = 4096;

    private readonly ConcurrentDictionary<string, LocalEntry> _entries = new(StringComparer.Ordinal);
    private readonly long[] _droppedAt = new long[Buckets];
    private readonly Lock _evicting = new();
    private int _count;

    internal int MaxEntries => maxEntries;

    /// <summary>Gets about how many entries are held.</summary>
    internal int Count => Volatile.Read(ref _count);

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

    /// <summary>Stores a copy read (or made) by a call whose read of memcached started when the log stood at
    /// <paramref name="readAt"/>; not stored when the key was dropped since.</summary>
    internal void Set(string key, LocalEntry entry, ulong readAt)
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

    /// <summary>Drops a key removed at sequence <paramref name="sequence"/>: its copy, and any copy read before it.</summary>
    internal void Drop(string key, ulong sequence)
    {
        ref long slot = ref _droppedAt[Bucket(key)];
        long seen;
        while ((ulong)(seen = Volatile.Read(ref slot)) < sequence && Interlocked.CompareExchange(ref slot, (long)sequence, seen) != seen)
        {
        }

        if (_entries.TryRemove(key, out _))
        {
            Interlocked.Decrement(ref _count);
        }
    }

    /// <summary>Drops every copy, and every copy read before <paramref name="sequence"/>.</summary>
    internal void Clear(ulong sequence)
    {
        for (int i = 0; i < Buckets; i++)
        {
            long seen;
            while ((ulong)(seen = Volatile.Read(ref _droppedAt[i])) < sequence && Interlocked.CompareExchange(ref _droppedAt[i], (long)sequence, seen) != seen)
            {
            }
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

    private bool DroppedAfter(string key, ulong readAt) => (ulong)Volatile.Read(ref _droppedAt[Bucket(key)]) > readAt;

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
/// token it was read with (0 when unknown: the strict check then reads it again), and when it expires
/// (<see cref="Environment.TickCount64"/>).</summary>
internal sealed record LocalEntry(HybridEnvelope Envelope, object? Shared, ulong Cas, long ExpiresAt);
