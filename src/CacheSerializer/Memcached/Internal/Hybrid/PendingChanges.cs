using System.Collections.Concurrent;

namespace CacheSerializer.Memcached.Internal.Hybrid;

/// <summary>The removals memcached did not take (docs/hybrid.md, "Failures"): a <c>RemoveAsync</c> or <c>SetAsync</c>
/// whose delete, store or log item failed, a <c>RemoveByTagAsync</c> whose log item failed. Left as they were, the
/// entry would keep its old value at L2 after memcached is back (until it expires) and other servers' L1 copies would
/// never hear of the change. Each is made again (the key deleted and logged, the tag logged) after every complete poll
/// of the invalidation log until memcached takes it, and a read of a key still pending on this server does not serve or
/// store it.</summary>
/// <remarks>
/// <para>At most <see cref="MaxPending"/> are kept one by one; beyond that they are made again as one removal of
/// <c>*</c> (every entry made before it is then recreated once), which loses none of them.</para>
/// <para>A removal by key whose delete failed but whose log item was written (its key's server is down, the log's is
/// not) is <b>logged</b>: every server's poller learns it from the item and keeps it too, so that it outlives a restart
/// of the web server that made it, each server neither serves nor stores what the key's server holds until one of them
/// deleted it, and making it again is the delete alone (every L1 copy was dropped by the item).</para>
/// <para>A removal by tag the log's primary could not sequence is <b>logged</b> once the mirrors were told of it (every
/// server then suspends the tag and keeps it too: <see cref="TagTable.Suspend"/>); making it again logs it, without
/// telling the mirrors again.</para>
/// </remarks>
internal sealed class PendingChanges
{
    /// <summary>The most changes kept one by one.</summary>
    internal const int MaxPending = 10_000;

    // Each change with the stamp of its last failure (a retry forgets it only if it did not fail again meanwhile) and
    // whether its log item was written.
    private readonly ConcurrentDictionary<(bool Tag, string Name), (long Stamp, bool Logged)> _changes = new();
    private long _stamp;
    private int _overflow;

    /// <summary>Gets a value indicating whether nothing is pending.</summary>
    internal bool IsEmpty => _changes.IsEmpty && Volatile.Read(ref _overflow) == 0;

    /// <summary>Gets how many changes are pending one by one (for tests).</summary>
    internal int Count => _changes.Count;

    /// <summary>Whether a removal of <paramref name="key"/> is pending (any key, once more than <see cref="MaxPending"/> were).</summary>
    internal bool Holds(string key) => !IsEmpty && (Volatile.Read(ref _overflow) != 0 || _changes.ContainsKey((false, key)));

    /// <summary>Keeps a change memcached did not take; <paramref name="logged"/> when its log item was written (see the
    /// remarks).</summary>
    internal void Add(bool tag, string name, bool logged = false)
    {
        if (_changes.Count < MaxPending)
        {
            (long, bool) change = (Interlocked.Increment(ref _stamp), logged);
            _changes.AddOrUpdate((tag, name), change, (_, old) => (change.Item1, old.Logged && logged));
        }
        else
        {
            Volatile.Write(ref _overflow, 1);
        }
    }

    /// <summary>Makes every pending change again with <paramref name="make"/> (tag or key, name, logged; true when
    /// memcached took it), forgetting those taken; returns how many were.</summary>
    internal async Task<int> RetryAsync(Func<bool, string, bool, CancellationToken, Task<bool>> make, CancellationToken cancellationToken)
    {
        KeyValuePair<(bool Tag, string Name), (long, bool Logged)>[] pending = [.. _changes];
        if (Volatile.Read(ref _overflow) != 0)
        {
            // Made before the ones it stands for are forgotten, so none of them is lost if it fails.
            if (!await make(true, TagTable.All, false, cancellationToken).ConfigureAwait(false))
            {
                return 0;
            }

            Volatile.Write(ref _overflow, 0);
            foreach (KeyValuePair<(bool Tag, string Name), (long, bool)> change in pending)
            {
                _changes.TryRemove(change);
            }

            return pending.Length + 1;
        }

        bool[] taken = await Task.WhenAll(pending.Select(c => make(c.Key.Tag, c.Key.Name, c.Value.Logged, cancellationToken))).ConfigureAwait(false);
        int count = 0;
        for (int i = 0; i < pending.Length; i++)
        {
            if (taken[i] && _changes.TryRemove(pending[i]))
            {
                count++;
            }
        }

        return count;
    }

    /// <summary>Makes one pending key's removal again; true when it is no longer pending.</summary>
    internal async Task<bool> RetryKeyAsync(string key, Func<bool, string, bool, CancellationToken, Task<bool>> make, CancellationToken cancellationToken)
    {
        if (Volatile.Read(ref _overflow) != 0)
        {
            return await RetryAsync(make, cancellationToken).ConfigureAwait(false) > 0 && !Holds(key);
        }

        if (!_changes.TryGetValue((false, key), out (long, bool Logged) change))
        {
            return true;
        }

        if (!await make(false, key, change.Logged, cancellationToken).ConfigureAwait(false))
        {
            return false;
        }

        return _changes.TryRemove(new KeyValuePair<(bool, string), (long, bool)>((false, key), change)) || !Holds(key);
    }
}
