using System.Buffers.Binary;
using System.Collections.Concurrent;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached.Internal.Hybrid;

/// <summary>The sequence of each tag's last removal (<c>*</c> included) as this process knows it: learnt from the log
/// by the poller (so it is refreshed, unlike dotnet/extensions#7411), and read from <c>hc:tag:&lt;tag&gt;</c> before an
/// entry is judged when the tag is unknown or the poller is late, the entry waiting for that read (unlike #7771).</summary>
/// <remarks>
/// memcached may evict a tag's record at any moment, and a missing record cannot be told from a tag never removed. So a
/// missing record is never read as "never removed" (which served entries a completed removal covered, issue 44): it is
/// made anew with <c>add</c> at the log's current sequence, which every completed removal of the tag is at or below, so
/// that its loss costs each older entry of the tag one miss (Rails' key-based expiration: a lost version is a new one),
/// and never a stale value. Entries made after it take a creation sequence at least the record's
/// (<see cref="CreationAsync"/>), so they are not refused by it.
/// </remarks>
internal sealed class TagTable(MemcachedEngine engine)
{
    /// <summary>The tag that stands for every entry.</summary>
    internal const string All = "*";

    /// <summary>The most tags known at once; beyond it they are forgotten (each is read again when it next judges an entry).</summary>
    internal const int MaxKnown = 100_000;

    private readonly ConcurrentDictionary<string, ulong> _removedAt = new(StringComparer.Ordinal);

    // Tags removed without a sequence (the log's primary was down), each with the L1 epoch it was suspended at: every
    // entry of theirs is refused until resolved, but an L1 copy read after it (made since, by this process's factory).
    private readonly ConcurrentDictionary<string, long> _suspended = new(StringComparer.Ordinal);

    // The sequence of *'s last removal, kept beside the dictionary because every entry is judged by it: -1 when unknown.
    private long _allRemovedAt = -1;

    internal static string KeyOf(string tag) => "hc:tag:" + tag;

    /// <summary>Records a removal of <paramref name="tag"/> at <paramref name="sequence"/> (a later one is kept).</summary>
    internal void Record(string tag, ulong sequence)
    {
        if (_removedAt.Count >= MaxKnown && !_removedAt.ContainsKey(tag))
        {
            // Forgetting is safe: a tag not known here is read from its record before it judges an entry.
            _removedAt.Clear();
        }

        ulong kept = _removedAt.AddOrUpdate(tag, static (_, arg) => arg, static (_, old, arg) => Math.Max(old, arg), sequence);
        if (tag == All)
        {
            for (long known = Volatile.Read(ref _allRemovedAt); known < (long)kept;)
            {
                long seen = Interlocked.CompareExchange(ref _allRemovedAt, (long)kept, known);
                known = seen == known ? (long)kept : seen;
            }
        }
    }

    /// <summary>Refuses every entry of <paramref name="tag"/> (<c>*</c>: every entry) until <see cref="Resolve"/>, but an
    /// L1 copy whose read started at <see cref="LocalCache.Epoch"/> <paramref name="since"/> or later (its value was made
    /// after the removal): it was removed while the log's primary could not give the removal a sequence, and its record
    /// still holds the one before. Kept through <see cref="Clear"/> (the record read again would not know of it).</summary>
    internal void Suspend(string tag, long since) => _suspended.AddOrUpdate(tag, static (_, arg) => arg, static (_, old, arg) => Math.Max(old, arg), since);

    /// <summary>Records the removal of <paramref name="tag"/> made again at <paramref name="sequence"/> (after the removal
    /// that suspended it, so it covers it): the tag is judged by its sequence again. A removal of <c>*</c> covers every
    /// suspended tag.</summary>
    internal void Resolve(string tag, ulong sequence)
    {
        Record(tag, sequence);
        if (tag == All)
        {
            _suspended.Clear();
        }
        else
        {
            _suspended.TryRemove(tag, out _);
        }
    }

    /// <summary>Gets a value indicating whether the last removal of <c>*</c> is known here.</summary>
    internal bool KnowsAll => Volatile.Read(ref _allRemovedAt) >= 0;

    /// <summary>Reads a tag's record (made anew when missing) and records it; the poller reads <c>*</c>'s this way, which
    /// also keeps it recently used in memcached's LRU.</summary>
    internal Task ReadAsync(string tag, CancellationToken cancellationToken) => FetchAsync(tag, cancellationToken);

    /// <summary>Gets how many tags are known (for tests).</summary>
    internal int Count => _removedAt.Count;

    /// <summary>Forgets every tag: each is read again before it judges an entry.</summary>
    internal void Clear()
    {
        _removedAt.Clear();
        Volatile.Write(ref _allRemovedAt, -1);
    }

    /// <summary>Whether an entry made at <paramref name="creation"/> with <paramref name="tags"/> outlives every removal
    /// of its tags and of <c>*</c>. With <paramref name="trusted"/> false (the poller is late) every sequence is read
    /// from memcached; a read that fails judges the entry invalid. <paramref name="readAt"/>: for an L1 copy, the epoch
    /// its read started at (a suspension before it does not refuse it: <see cref="Suspend"/>).</summary>
    internal async ValueTask<bool> IsValidAsync(ulong creation, string[] tags, bool trusted, CancellationToken cancellationToken, long readAt = long.MinValue)
    {
        if (IsSuspended(tags, readAt))
        {
            return false;
        }

        if (await RemovedAtAsync(All, trusted, cancellationToken).ConfigureAwait(false) > creation)
        {
            return false;
        }

        foreach (string tag in tags)
        {
            if (await RemovedAtAsync(tag, trusted, cancellationToken).ConfigureAwait(false) > creation)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Judges an entry made at <paramref name="creation"/> with <paramref name="tags"/> by the removals this
    /// process knows of, without asking memcached: false when one of its tags or <c>*</c> was removed after it, true when
    /// none was and every one is known here, null when none was but one is unknown here.</summary>
    internal bool? ValidAsKnown(ulong creation, string[] tags, long readAt = long.MinValue)
    {
        if (IsSuspended(tags, readAt))
        {
            return false;
        }

        long all = Volatile.Read(ref _allRemovedAt);
        bool? valid = all < 0 ? null : (ulong)all <= creation;
        foreach (string tag in tags)
        {
            if (valid == false)
            {
                return false;
            }

            bool? one = Judge(tag, creation);
            valid = one == false ? false : valid & one;
        }

        return valid;
    }

    /// <summary>The creation sequence of an entry with <paramref name="tags"/> whose value is made after now: at least
    /// <paramref name="seen"/> (the log as this process has applied it) and at least the last removal of each of its tags
    /// and of <c>*</c> (read, or made anew, when not known here). Each of those is a sequence the log's counter had
    /// reached before the value is made, so the entry comes after every removal at or below it; a record that cannot be
    /// read raises nothing (the entry may then be refused once, never served stale).</summary>
    internal async ValueTask<ulong> CreationAsync(ulong seen, string[] tags, CancellationToken cancellationToken)
    {
        ulong creation = Math.Max(seen, await KnownOrReadAsync(All, cancellationToken).ConfigureAwait(false));
        foreach (string tag in tags)
        {
            creation = Math.Max(creation, await KnownOrReadAsync(tag, cancellationToken).ConfigureAwait(false));
        }

        return creation;
    }

    private async ValueTask<ulong> KnownOrReadAsync(string tag, CancellationToken cancellationToken)
    {
        ulong removed = await RemovedAtAsync(tag, trusted: true, cancellationToken).ConfigureAwait(false);
        return removed == ulong.MaxValue ? 0 : removed;
    }

    /// <summary>Whether a tag of an entry, or <c>*</c>, is suspended for a copy read at epoch <paramref name="readAt"/>
    /// (<see cref="long.MinValue"/>: an entry in memcached, refused whenever one is).</summary>
    private bool IsSuspended(string[] tags, long readAt)
    {
        if (_suspended.IsEmpty)
        {
            return false;
        }

        if (_suspended.TryGetValue(All, out long all) && all > readAt)
        {
            return true;
        }

        foreach (string tag in tags)
        {
            if (_suspended.TryGetValue(tag, out long since) && since > readAt)
            {
                return true;
            }
        }

        return false;
    }

    private bool? Judge(string tag, ulong creation) => _removedAt.TryGetValue(tag, out ulong removed) ? removed <= creation : null;

    private ValueTask<ulong> RemovedAtAsync(string tag, bool trusted, CancellationToken cancellationToken) =>
        trusted && _removedAt.TryGetValue(tag, out ulong known) ? ValueTask.FromResult(known) : new ValueTask<ulong>(FetchAsync(tag, cancellationToken));

    /// <summary>Reads the tag's record; a missing one is made anew at the log's current sequence (see the remarks).
    /// <see cref="ulong.MaxValue"/> when it cannot be read or made (the entry is not served).</summary>
    private async Task<ulong> FetchAsync(string tag, CancellationToken cancellationToken)
    {
        try
        {
            MemcachedKey key = engine.Key(KeyOf(tag));
            ulong? removed = await ReadRecordAsync(key, cancellationToken).ConfigureAwait(false);
            if (removed is null && await LogReplica.ReadPrimaryCounterAsync(engine, cancellationToken).ConfigureAwait(false) is ulong latest)
            {
                // add: of two servers making it at once, both keep the one memcached took.
                MemcachedStoreResult added = await engine.StoreAsync(StoreMode.Add, key, RecordItem(latest), null, 0, cancellationToken).ConfigureAwait(false);
                removed = added == MemcachedStoreResult.Stored ? latest
                    : added == MemcachedStoreResult.NotStored ? await ReadRecordAsync(key, cancellationToken).ConfigureAwait(false)
                    : null;
            }

            if (removed is not ulong known || known == ulong.MaxValue)
            {
                return ulong.MaxValue; // unknown: the entry is not served
            }

            Record(tag, known);
            return _removedAt.GetValueOrDefault(tag, known);
        }
        catch (MemcachedException)
        {
            return ulong.MaxValue;
        }
    }

    /// <summary>A tag record's bytes: the sequence of the tag's last removal.</summary>
    internal static CacheItem RecordItem(ulong sequence)
    {
        byte[] bytes = new byte[sizeof(ulong)];
        BinaryPrimitives.WriteUInt64LittleEndian(bytes, sequence);
        return new CacheItem(0, bytes);
    }

    /// <summary>The sequence a record holds; null when it is missing; <see cref="ulong.MaxValue"/> when it is not one
    /// (never served by).</summary>
    private async Task<ulong?> ReadRecordAsync(MemcachedKey key, CancellationToken cancellationToken)
    {
        GetReply reply = await engine.ExecuteAsync(key, GetRequest.Checked(key, engine.GetRequests), cancellationToken).ConfigureAwait(false);
        return !reply.Hit ? null
            : reply.Item.Data.Count == sizeof(ulong) ? BinaryPrimitives.ReadUInt64LittleEndian(reply.Item.Data)
            : ulong.MaxValue;
    }
}
