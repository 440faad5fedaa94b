using System.Buffers.Binary;
using System.Collections.Concurrent;
using CacheSerializer.Memcached.Internal.Engine;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached.Internal.Hybrid;

/// <summary>The sequence of each tag's last removal (<c>*</c> included) as this process knows it: learnt from the log
/// by the poller (so it is refreshed, unlike dotnet/extensions#7411), and read from <c>hc:tag:&lt;tag&gt;</c> before an
/// entry is judged when the tag is unknown or the poller is late, the entry waiting for that read (unlike #7771).</summary>
internal sealed class TagTable(MemcachedEngine engine)
{
    /// <summary>The tag that stands for every entry.</summary>
    internal const string All = "*";

    private readonly ConcurrentDictionary<string, ulong> _removedAt = new(StringComparer.Ordinal);

    // The sequence of *'s last removal, kept beside the dictionary because every entry is judged by it: -1 when unknown.
    private long _allRemovedAt = -1;

    internal static string KeyOf(string tag) => "hc:tag:" + tag;

    /// <summary>Records a removal of <paramref name="tag"/> at <paramref name="sequence"/> (a later one is kept).</summary>
    internal void Record(string tag, ulong sequence)
    {
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

    /// <summary>Forgets every tag: each is read again before it judges an entry.</summary>
    internal void Clear()
    {
        _removedAt.Clear();
        Volatile.Write(ref _allRemovedAt, -1);
    }

    /// <summary>Whether an entry made at <paramref name="creation"/> with <paramref name="tags"/> outlives every removal
    /// of its tags and of <c>*</c>. With <paramref name="trusted"/> false (the poller is late) every sequence is read
    /// from memcached; a read that fails judges the entry invalid.</summary>
    internal async ValueTask<bool> IsValidAsync(ulong creation, string[] tags, bool trusted, CancellationToken cancellationToken)
    {
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
    internal bool? ValidAsKnown(ulong creation, string[] tags)
    {
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

    private bool? Judge(string tag, ulong creation) => _removedAt.TryGetValue(tag, out ulong removed) ? removed <= creation : null;

    private ValueTask<ulong> RemovedAtAsync(string tag, bool trusted, CancellationToken cancellationToken) =>
        trusted && _removedAt.TryGetValue(tag, out ulong known) ? ValueTask.FromResult(known) : new ValueTask<ulong>(FetchAsync(tag, cancellationToken));

    private async Task<ulong> FetchAsync(string tag, CancellationToken cancellationToken)
    {
        GetReply reply;
        try
        {
            MemcachedKey key = engine.Key(KeyOf(tag));
            reply = await engine.ExecuteAsync(key, GetRequest.Checked(key, engine.GetRequests), cancellationToken).ConfigureAwait(false);
        }
        catch (MemcachedException)
        {
            return ulong.MaxValue; // unknown: the entry is not served
        }

        ulong removed = !reply.Hit ? 0
            : reply.Item.Data.Count == sizeof(ulong) ? BinaryPrimitives.ReadUInt64LittleEndian(reply.Item.Data)
            : ulong.MaxValue;
        Record(tag, removed);
        return _removedAt.GetValueOrDefault(tag, removed);
    }
}
