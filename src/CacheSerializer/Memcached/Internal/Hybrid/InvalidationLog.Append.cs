using CacheSerializer.Memcached.Internal.Connections;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached.Internal.Hybrid;

/// <summary>The log's writer: a removal appended to the log's copies.</summary>
internal sealed partial class InvalidationLog
{
    /// <summary>How long a tag's record says "removed, sequence unknown" (a removal made while the primary was down).</summary>
    private static readonly TimeSpan UnsequencedRecordLifetime = TimeSpan.FromMinutes(10);

    /// <summary>Appends a removal: a key, or a tag (then <c>hc:tag:&lt;tag&gt;</c> too, before the items, so that a
    /// process that reads the tag after an item exists gets it). Complete when two of the log's copies took it (the one,
    /// with a single copy) and, for a tag, its record too; a copy's server that does not answer is not waited for once
    /// the others made it complete. Returns null when it is not complete (memcached could not be written), else the
    /// primary's sequence for a tag, 0 for a key.</summary>
    /// <param name="kind">The item's kind: <c>t</c> a tag; a key taken at L2 with its gutter copy (<c>g</c>), or not
    /// taken by its own server (<c>H</c>), its gutter copy's (<c>M</c>) or either (<c>N</c>): every server then keeps what
    /// was missed.</param>
    /// <param name="name">The key or tag.</param>
    /// <param name="announce">For a tag the primary cannot sequence: tell the mirrors (sequence 0), so that every server
    /// refuses its entries and makes the removal again; a removal made again is not announced again.</param>
    /// <param name="cancellationToken">The call's token.</param>
    internal async Task<ulong?> AppendAsync(byte kind, string name, bool announce, CancellationToken cancellationToken)
    {
        bool tag = kind == (byte)'t';
        LogReplica primary = _replicas[0];
        if (!tag)
        {
            Task<ulong>[] appends = Array.ConvertAll(_replicas, r => AppendToAsync(r, kind, 0, name, cancellationToken));
            return await TakenAsync(appends, _quorum, cancellationToken).ConfigureAwait(false) < _quorum ? null : 0;
        }

        // A tag's removal is a sequence of the primary's, which the mirrors' items carry. Without one (the primary is
        // down) it is not complete: the mirrors are told with sequence 0, so that every server refuses the tag's entries
        // and makes the removal again once the primary is back (TagTable.Suspend); and the tag's record says "removed,
        // sequence unknown" (which refuses every entry of the tag) for a server that judges by the record, not yet
        // having read the log. That record lasts 10 minutes at most: missing, it is made anew, which is safe too.
        if (await NextOrNullAsync(primary, cancellationToken).ConfigureAwait(false) is not ulong n)
        {
            if (announce && _replicas.Length > 1)
            {
                await RecordAsync(name, ulong.MaxValue, cancellationToken, UnsequencedRecordLifetime).ConfigureAwait(false);
                await TakenAsync(Array.ConvertAll(_replicas[1..], r => AppendToAsync(r, kind, 0, name, cancellationToken)), _replicas.Length - 1, cancellationToken).ConfigureAwait(false);
            }

            return null;
        }

        bool recorded = await RecordAsync(name, n, cancellationToken).ConfigureAwait(false);
        var items = new Task<ulong>[_replicas.Length];
        items[0] = WriteAsync(primary, n, kind, n, name, cancellationToken);
        for (int i = 1; i < _replicas.Length; i++)
        {
            items[i] = AppendToAsync(_replicas[i], kind, n, name, cancellationToken);
        }

        // Items are written even when the record was not: every server that reads the log then refuses the tag's entries.
        int taken = await TakenAsync(items, _quorum, cancellationToken).ConfigureAwait(false);
        return recorded && taken >= _quorum ? n : null;
    }

    private static async Task<ulong?> NextOrNullAsync(LogReplica replica, CancellationToken cancellationToken)
    {
        try
        {
            return await replica.NextAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (MemcachedException)
        {
            return null;
        }
    }

    private async Task<bool> RecordAsync(string tag, ulong sequence, CancellationToken cancellationToken, TimeSpan? lifetime = null)
    {
        try
        {
            return await _engine.StoreAsync(StoreMode.Set, TagTable.KeyOf(tag), TagTable.RecordItem(sequence), lifetime, 0, cancellationToken).ConfigureAwait(false) == MemcachedStoreResult.Stored;
        }
        catch (MemcachedException)
        {
            return false;
        }
    }

    /// <summary>Takes the next position of <paramref name="replica"/> and writes the item there; the position, or 0 when
    /// its server did not take it.</summary>
    private static async Task<ulong> AppendToAsync(LogReplica replica, byte kind, ulong sequence, string name, CancellationToken cancellationToken)
    {
        try
        {
            return await replica.NextAsync(cancellationToken).ConfigureAwait(false) is ulong position
                ? await WriteAsync(replica, position, kind, sequence, name, cancellationToken).ConfigureAwait(false)
                : 0;
        }
        catch (MemcachedException)
        {
            return 0;
        }
    }

    private static async Task<ulong> WriteAsync(LogReplica replica, ulong position, byte kind, ulong sequence, string name, CancellationToken cancellationToken)
    {
        try
        {
            return await replica.WriteAsync(position, kind, sequence, name, cancellationToken).ConfigureAwait(false) ? position : 0;
        }
        catch (MemcachedException)
        {
            return 0;
        }
    }

    /// <summary>How many of <paramref name="writes"/> took their item, waiting only until <paramref name="needed"/> did
    /// or no more can (the rest go on, unobserved: a frozen server is not waited for).</summary>
    private static async Task<int> TakenAsync(Task<ulong>[] writes, int needed, CancellationToken cancellationToken)
    {
        var pending = new List<Task<ulong>>(writes);
        int taken = 0;
        while (taken < needed && taken + pending.Count >= needed)
        {
            Task<ulong> done = await Task.WhenAny(pending).ConfigureAwait(false);
            pending.Remove(done);
            taken += done.IsCompletedSuccessfully && done.Result != 0 ? 1 : 0;
        }

        foreach (Task<ulong> write in pending)
        {
            BackgroundTask.ObserveFailure(write);
        }

        cancellationToken.ThrowIfCancellationRequested();
        return taken;
    }
}
