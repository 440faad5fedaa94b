using System.Diagnostics;
using CacheSerializer.Memcached.Internal.Deploys;
using CacheSerializer.Memcached.Internal.GetOrCreate;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Memcached.Internal.Telemetry;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Memcached;

/// <summary>One factory call per expiry across the farm: in-process single flight, then memcached's recache flags
/// (docs/client.md, "GetOrCreateAsync").</summary>
/// <remarks>
/// The read is <c>mg &lt;key&gt; N&lt;lock&gt; [R&lt;window&gt;] v f c</c>. memcached 1.6.18 then answers exactly one
/// get in the farm with <c>W</c> (won) for each miss (it creates an empty placeholder), for each entry whose TTL fell
/// below <c>R</c>, and for each entry marked stale; every other get sees <c>Z</c> until the item is stored again. The
/// winner of a miss runs the factory while the others poll; the winner of an entry that still has a value returns it
/// and refreshes it in the background while the others return it too.
/// </remarks>
public sealed partial class MemcachedClient
{
    /// <summary>The first pause of a caller waiting for another's factory; it doubles up to <see cref="MaxPause"/>.
    /// Only one caller per process and key polls (the others wait for it in <see cref="FlightTable"/>).</summary>
    private static readonly TimeSpan FirstPause = TimeSpan.FromMilliseconds(5);

    private static readonly TimeSpan MaxPause = TimeSpan.FromMilliseconds(100);

    /// <inheritdoc/>
    public Task<T> GetOrCreateAsync<T>(string key, Func<CancellationToken, Task<T>> factory, GetOrCreateOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(key);
        ArgumentNullException.ThrowIfNull(factory);
        var policy = EntryPolicy.Resolve(options, _settings.GetOrCreate);
        ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
        return SharedLoadAsync(key, factory, policy, cancellationToken);
    }

    /// <inheritdoc/>
    public Task<bool> InvalidateAsync(string key, GetOrCreateOptions? options = null, CancellationToken cancellationToken = default)
    {
        var policy = EntryPolicy.Resolve(options, _settings.GetOrCreate);
        MemcachedKey encoded = _settings.Key(key);
        return ExecuteAsync(Locate(encoded), KeyRequest.Invalidate(encoded, policy.InvalidatedSeconds), cancellationToken);
    }

    /// <summary>Gets how many <see cref="GetOrCreateAsync{T}"/> calls are running in this process (for tests).</summary>
    internal int FlightCount => _flights.Count;

    /// <summary>Joins or starts the call the callers of one key share in this process. The caller that started it gets
    /// the value it produced; a caller that joined gets its own copy (deserialized from the same bytes) unless the type
    /// is immutable, so no two requests ever hold one mutable object (HybridCache does the same).</summary>
    private async Task<T> SharedLoadAsync<T>(string key, Func<CancellationToken, Task<T>> factory, EntryPolicy policy, CancellationToken cancellationToken)
    {
        (Loaded<T> loaded, bool joined) = await _flights.RunAsync(key, (Client: this, Key: key, Factory: factory, Policy: policy),
            static (state, round, token) => state.Client.LoadAsync(state.Key, state.Factory, state.Policy, round, token), cancellationToken).ConfigureAwait(false);
        return joined && !ImmutableType<T>.Value ? _transcoder.Deserialize<T>(loaded.Item)! : loaded.Value;
    }

    /// <summary>The call the callers of one key in this process share: the value, and the item it was read from or
    /// stored as (for the copies of the callers that joined).</summary>
    private Task<Loaded<T>> LoadAsync<T>(string key, Func<CancellationToken, Task<T>> factory, EntryPolicy policy, FlightRound round, CancellationToken token) =>
        LoadAsync(_settings.Key(key), factory, policy, boundTo: 0, round, token);

    /// <summary>The shared call on <paramref name="encoded"/>: the key itself (<paramref name="boundTo"/> 0), or this
    /// build's copy of a key whose item another build wrote under CAS token <paramref name="boundTo"/> (docs/client.md,
    /// "Rolling deploys"), which the farm's callers of this build lease and fill as they would the key.</summary>
    /// <remarks>Each read of the key and each factory run is reported to <paramref name="round"/> as a step that decides
    /// the result (callers of the process that arrive later wait for the next round); a read of the copy is not: what
    /// it finds stands only as long as the read of the key before it.</remarks>
    private async Task<Loaded<T>> LoadAsync<T>(MemcachedKey encoded, Func<CancellationToken, Task<T>> factory, EntryPolicy policy, ulong boundTo, FlightRound round, CancellationToken token)
    {
        long start = Stopwatch.GetTimestamp();
        TimeSpan pause = FirstPause;
        ulong invalidated = 0;
        while (true)
        {
            // Located on every round: with auto-eject the key may have moved to another server meanwhile.
            // Not pooled: the bytes stay with the result, for the copies of the callers that joined.
            var lease = GetRequest.Lease(encoded, policy.LockSeconds, policy.RecacheSeconds, pooled: false, _getRequests);
            if (boundTo == 0)
            {
                round.Decide();
            }

            GetReply reply = await ExecuteValueAsync(Locate(encoded), lease, token).ConfigureAwait(false);
            T value = default!;
            CacheItem read = default;
            if (reply.Hit && !TryReadLeased(encoded, reply, boundTo, out value, out read, out TranscoderErrorKind reason))
            {
                // Another build's item: this build's copy beside it stands in, leased and filled by this build's callers.
                // A win the read carried is the other build's (its early refresh): handed back, never used.
                if (boundTo == 0 && OtherBuildCas(reason, reply) is ulong otherBuild and not 0)
                {
                    if (reply.Won)
                    {
                        ReturnWin(encoded, reply.Cas);
                    }

                    return await LoadAsync(encoded.CopyFor(BuildCopies.BuildOf(typeof(T))), factory, policy, otherBuild, round, token).ConfigureAwait(false);
                }

                // An item this build cannot read (another build's contract, corrupt...) is a miss, and the farm keeps
                // one factory call for it: the caller that holds its win replaces it with a CAS store, as a stale
                // entry's winner does.
                if (reply.Won)
                {
                    return await CreateAsync(encoded, factory, policy, reply.Cas, placeholder: false, "won", boundTo, round, token).ConfigureAwait(false);
                }

                // A fresh entry gives no win: mark it stale if it is still this version (md I C<cas>), so that the next
                // get in the farm wins it (this caller's next poll, unless another caller is faster) and the others
                // poll. An entry that is stale or whose win went to another caller (Z) has a winner: poll for it.
                if (!reply.Stale && (reply.Recache & RecacheFlags.WinSent) == 0 && reply.Cas != invalidated)
                {
                    invalidated = reply.Cas;
                    await ExecuteValueAsync(Locate(encoded), KeyRequest.InvalidateKeepingTtl(encoded, reply.Cas), token).ConfigureAwait(false);
                }
            }
            else if (reply.Hit)
            {
                if (!reply.Stale || policy.ServesStale)
                {
                    // Fresh, in its early-refresh or stale window, or invalidated with a stale window: served now. The
                    // one caller that won (W) refreshes it behind the scenes; the others (Z) leave it to that caller.
                    if (reply.Won)
                    {
                        StartRefresh(encoded, factory, policy, reply.Cas, boundTo);
                    }

                    return new Loaded<T>(value, read);
                }

                if (reply.Won)
                {
                    // Invalidated, and this entry serves no stale value: create it now; the others wait for it.
                    return await CreateAsync(encoded, factory, policy, reply.Cas, placeholder: false, "won", boundTo, round, token).ConfigureAwait(false);
                }
            }
            else if (reply.Won)
            {
                // A miss, and this get created the placeholder: the farm waits for this caller's value.
                return await CreateAsync(encoded, factory, policy, reply.Cas, placeholder: true, "won", boundTo, round, token).ConfigureAwait(false);
            }
            else if (!reply.IsPlaceholder)
            {
                // A miss without a placeholder: the server failed (ServerFailurePolicy.Miss) or had no memory for one.
                return await CreateAsync(encoded, factory, policy, cas: 0, placeholder: false, "unprotected", boundTo, round, token).ConfigureAwait(false);
            }

            // Another caller (here or on another server) is creating the value: poll until it is stored, for at most
            // LockTimeout, then create it here rather than fail.
            TimeSpan waited = Stopwatch.GetElapsedTime(start);
            if (waited >= policy.LockTimeout)
            {
                return await CreateAsync(encoded, factory, policy, cas: 0, placeholder: false, "lock_timeout", boundTo, round, token).ConfigureAwait(false);
            }

            TimeSpan left = policy.LockTimeout - waited;
            await Task.Delay(pause < left ? pause : left, token).ConfigureAwait(false);
            pause = pause * 2 < MaxPause ? pause * 2 : MaxPause;
        }
    }

    /// <summary>Deserializes a value read by a lease; false for an unreadable item under <see cref="UnreadableItemPolicy.Miss"/>
    /// (never deleted here: the caller replaces it). Under <see cref="UnreadableItemPolicy.Throw"/> a win the read
    /// carried is handed back before the exception reaches the callers, so that another caller can try.</summary>
    /// <remarks>A build copy (<paramref name="boundTo"/> not 0) reads only while it is bound to that item of its key; one
    /// bound to an item since replaced reads as an unreadable item (without being counted as one), which its winner
    /// replaces.</remarks>
    private bool TryReadLeased<T>(MemcachedKey key, in GetReply reply, ulong boundTo, out T value, out CacheItem read, out TranscoderErrorKind reason)
    {
        read = reply.Item;
        if (boundTo != 0 && !BuildCopies.TryUnwrap(reply.Item, boundTo, out read))
        {
            value = default!;
            reason = TranscoderErrorKind.Other;
            return false;
        }

        try
        {
            bool ok = _unreadable.TryRead(read, key, out T? item, out reason);
            value = item!;
            return ok;
        }
        catch when (reply.Won)
        {
            ReturnWin(key, reply.Cas);
            throw;
        }
    }

    /// <summary>Runs the factory in the caller's flight and stores its value. With a win (<paramref name="cas"/> not
    /// 0), a factory, serializer or store that throws releases the win before the exception reaches the callers, so the
    /// next get wins at once instead of waiting for the placeholder's TTL.</summary>
    private async Task<Loaded<T>> CreateAsync<T>(MemcachedKey key, Func<CancellationToken, Task<T>> factory, EntryPolicy policy, ulong cas, bool placeholder, string reason, ulong boundTo, FlightRound round, CancellationToken token)
    {
        round.Decide();
        MemcachedTelemetry.RecordFactoryCall(Locate(key).Endpoint, reason);
        T value;
        CacheItem item;
        try
        {
            value = await factory(token).ConfigureAwait(false);
            item = _transcoder.Serialize(value);
            await StoreCreatedAsync(key, boundTo == 0 ? item : BuildCopies.Wrap(boundTo, item), policy, cas, token).ConfigureAwait(false);
        }
        catch (Exception) when (cas != 0)
        {
            await ReleaseWinAsync(key, cas, placeholder).ConfigureAwait(false);
            throw;
        }

        return new Loaded<T>(value, item);
    }

    /// <summary>Stores a created value for <see cref="EntryPolicy.StoredFor"/>. With the CAS token of the placeholder or
    /// stale item this caller won, a value stored or an invalidation made since (both change the token: <c>EX</c>) wins
    /// over this one, and so does a delete (<c>NF</c>): the value may have been loaded before the update the delete
    /// stands for, so it is returned to the callers and not stored (the next get wins a new placeholder). Without a
    /// token (no placeholder could be made, or the wait timed out) the value is stored as it is.</summary>
    private Task<MemcachedStoreResult> StoreCreatedAsync(MemcachedKey key, CacheItem item, EntryPolicy policy, ulong cas, CancellationToken token) =>
        StoreAsync(StoreMode.Set, key, item, policy.StoredFor, cas, token);

    /// <summary>Refreshes an entry this caller won while it still had a value, after the caller has returned it.</summary>
    private void StartRefresh<T>(MemcachedKey key, Func<CancellationToken, Task<T>> factory, EntryPolicy policy, ulong cas, ulong boundTo)
    {
        // On the thread pool, without the caller's ExecutionContext: its HttpContext, Activity.Current and other
        // AsyncLocals belong to a request that will be over before the refresh is.
        using (ExecutionContext.SuppressFlow())
        {
            _ = Task.Run(() => RefreshAsync(key, factory, policy, cas, boundTo));
        }
    }

    private async Task RefreshAsync<T>(MemcachedKey key, Func<CancellationToken, Task<T>> factory, EntryPolicy policy, ulong cas, ulong boundTo)
    {
        MemcachedTelemetry.RecordFactoryCall(Locate(key).Endpoint, "refresh");
        try
        {
            T value = await factory(_lifetime.Token).ConfigureAwait(false);
            CacheItem item = _transcoder.Serialize(value);
            await StoreCreatedAsync(key, boundTo == 0 ? item : BuildCopies.Wrap(boundTo, item), policy, cas, _lifetime.Token).ConfigureAwait(false);
        }
        catch (Exception ex)
        {
            // The win is kept: callers are served the current value until its entry expires (at most the early-refresh
            // or stale window), then the next one creates it in the foreground. A failing backend is not retried on
            // every read meanwhile.
            if (!_lifetime.IsCancellationRequested)
            {
                LogRefreshFailed(_logger, ex.GetType().Name, ex);
            }
        }
    }

    /// <summary>Hands back a win a read received and cannot act on (a plain get of an item marked stale): on the thread
    /// pool, since this is called on a connection's read thread.</summary>
    private void ReturnWin(MemcachedKey key, ulong cas) =>
        ThreadPool.UnsafeQueueUserWorkItem(static s => _ = s.Client.ReleaseWinAsync(s.Key, s.Cas, placeholder: false), (Client: this, Key: key, Cas: cas), preferLocal: false);

    /// <summary>Releases a win: deletes this caller's placeholder, or marks the stale item stale again (<c>md I</c> clears
    /// its win), in both cases only if its CAS token is still the one read, so a value stored since is never touched.</summary>
    private async Task ReleaseWinAsync(MemcachedKey key, ulong cas, bool placeholder)
    {
        try
        {
            KeyRequest release = placeholder ? KeyRequest.Delete(key, cas) : KeyRequest.InvalidateKeepingTtl(key, cas);
            await ExecuteValueAsync(Locate(key), release, CancellationToken.None).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is MemcachedException or ObjectDisposedException)
        {
            // Best effort: the win then lapses with its item's TTL (the placeholder's is LockTimeout plus a second).
        }
    }

    /// <summary>A value and the item it was read from or stored as.</summary>
    private readonly record struct Loaded<T>(T Value, CacheItem Item);

    [LoggerMessage(EventId = 12, Level = LogLevel.Warning, Message = "memcached GetOrCreateAsync: a background refresh failed ({ExceptionType}); the current value is served until its entry expires, then the next caller creates it")]
    private static partial void LogRefreshFailed(ILogger logger, string exceptionType, Exception exception);
}
