using System.Collections.Concurrent;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached.Internal.Hybrid;

// The gutter (docs/hybrid.md, "The gutter"): while a key's own server is down, its entry is leased and filled under its
// gutter key on another server, so that the farm makes one factory call per change; every removal deletes both.
internal sealed partial class MemcachedHybridCache
{
    /// <summary>Log item kinds of a removal by key, by what memcached took: both the entry and its gutter copy
    /// (<c>g</c>); not the entry (<c>H</c>: every server keeps its delete pending); not the gutter copy (<c>M</c>: no
    /// server reads the gutter for that key until it deleted the copy); neither (<c>N</c>). Builds before the gutter
    /// write <c>k</c> (taken; the gutter copy not deleted) and <c>K</c> (not taken; nor the gutter copy), and read every
    /// kind they do not know as <c>k</c>.</summary>
    private const byte Taken = (byte)'g';

    private const byte HomeMissed = (byte)'H';

    private const byte GutterMissed = (byte)'M';

    private const byte BothMissed = (byte)'N';

    /// <summary>The most keys kept whose gutter copy is to be deleted again; beyond it the gutter is not read any more.</summary>
    private const int MaxGutterMissed = 10_000;

    // Keys whose gutter copy a removal could not delete (this server's own, or a log item M or N): the gutter is not read
    // for them until this server deleted the copy again (after each complete poll, RetryGutterAsync).
    private readonly ConcurrentDictionary<string, bool> _gutterMissed = new(StringComparer.Ordinal);
    private volatile bool _gutterOff;

    /// <summary>Where a read of <paramref name="key"/> leases its entry: the gutter key while the key's own server is marked
    /// down (and no removal left its gutter copy behind); null otherwise (the key itself).</summary>
    /// <remarks>Only while the poller is fresh: a removal by an earlier build, which does not delete the gutter copy, is
    /// then known here (its item, applied within the bound its maker waits, marks the copy).</remarks>
    private string? GutterFor(string key) =>
        !_gutterOff && Gutter.IsHomeDown(_engine, key) && _log.IsFresh && !_gutterMissed.ContainsKey(key) ? Gutter.KeyOf(_engine, key) : null;

    /// <summary>The log item kind of a removal by key, from what memcached took.</summary>
    private static byte KindOf(bool home, bool gutter) => (home, gutter) switch
    {
        (true, true) => Taken,
        (false, true) => HomeMissed,
        (true, false) => GutterMissed,
        _ => BothMissed,
    };

    /// <summary>A log item told this server that a removal left something behind: a key's entry (kept pending), its
    /// gutter copy (not read until deleted: an earlier build's removals never delete it), or a tag the primary could not
    /// sequence (kept pending).</summary>
    private void Missed(byte kind, string name)
    {
        if (kind is GutterMissed or BothMissed or (byte)'k' or (byte)'K')
        {
            KeepGutterMissed(name); // an earlier build's removal did not delete the gutter copy either
        }

        if (kind is HomeMissed or BothMissed or (byte)'K' or (byte)'t')
        {
            _pending.Add(tag: kind == (byte)'t', name, logged: true);
        }
    }

    private void KeepGutterMissed(string key)
    {
        if (_gutterMissed.Count < MaxGutterMissed)
        {
            _gutterMissed[key] = true;
        }
        else
        {
            _gutterOff = true; // one key more could not be kept: no gutter is trusted in this process any more
        }
    }

    /// <summary>After each complete poll: the gutter copies removals left behind, deleted again.</summary>
    private async Task RetryGutterAsync(CancellationToken cancellationToken)
    {
        if (_gutterMissed.IsEmpty)
        {
            return;
        }

        await Task.WhenAll(_gutterMissed.Keys.Select(async key =>
        {
            if (Gutter.KeyOf(_engine, key) is not string gutter || await TryDeleteAsync(gutter, cancellationToken).ConfigureAwait(false))
            {
                _gutterMissed.TryRemove(key, out _);
            }
        })).ConfigureAwait(false);
    }

    /// <summary>Deletes a key at L2, on its own server and its gutter copy (at once); whether each took it (a key without
    /// a gutter: true), under either failure policy.</summary>
    private async Task<(bool Home, bool Gutter)> DeleteBothAsync(string key, CancellationToken cancellationToken)
    {
        Task<bool> home = TryDeleteAsync(key, cancellationToken);
        Task<bool> gutter = TryDeleteGutterAsync(key, cancellationToken);
        return (await home.ConfigureAwait(false), await gutter.ConfigureAwait(false));
    }

    /// <summary>Deletes a key's gutter copy; true when taken (or the key has no gutter). One not taken is kept
    /// (<see cref="KeepGutterMissed"/>): the gutter is not read for it until it is deleted again.</summary>
    private async Task<bool> TryDeleteGutterAsync(string key, CancellationToken cancellationToken)
    {
        if (Gutter.KeyOf(_engine, key) is not string gutter || await TryDeleteAsync(gutter, cancellationToken).ConfigureAwait(false))
        {
            return true;
        }

        KeepGutterMissed(key);
        return false;
    }

    /// <summary>Deletes a key at L2; false (logged) when memcached did not take it, under either failure policy.</summary>
    private async Task<bool> TryDeleteAsync(string key, CancellationToken cancellationToken)
    {
        try
        {
            MemcachedKey encoded = _engine.Key(key);
            await _engine.ExecuteAsync(encoded, KeyRequest.CheckedDelete(encoded), cancellationToken).ConfigureAwait(false);
            return true;
        }
        catch (MemcachedException ex)
        {
            LogWriteFailed(_logger, "remove", ex);
            return false;
        }
    }
}
