using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Memcached.Internal.Telemetry;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Memcached.Internal.GetOrCreate;

// The factory's side of a lease: run it (in the foreground for a miss, in the background for an early refresh) and
// store its value bound to what the lease read.
internal sealed partial class Leases
{
    /// <summary>Runs the factory in the caller's flight and stores its value. With a win (<paramref name="cas"/> not
    /// 0), a factory, serializer or store that throws releases the win before the exception reaches the callers, so the
    /// next get wins at once instead of waiting for the placeholder's TTL.</summary>
    private Task<Loaded<T>> CreateAsync<T>(Lease lease, Call<T> call, ulong cas, bool placeholder, string reason, CancellationToken token) =>
        RunFactoryAsync(lease.Key, call, reason, item => StoreCreatedAsync(lease, item, call.Policy, cas, token), new Win(lease.Key, cas, placeholder), token);

    /// <summary>Runs the factory in the caller's flight, then <paramref name="store"/> with its serialized value; a
    /// factory, serializer or store that throws releases <paramref name="win"/> (if any: CAS token not 0) first.</summary>
    private async Task<Loaded<T>> RunFactoryAsync<T>(MemcachedKey key, Call<T> call, string reason, Func<CacheItem, Task> store, Win win, CancellationToken token)
    {
        call.Round.Decide();
        MemcachedTelemetry.RecordFactoryCall(engine.Locate(key).Endpoint, reason);
        T value;
        CacheItem item;
        try
        {
            value = await call.Factory(token).ConfigureAwait(false);
            item = call.Format.Serialize(engine, value);
            await store(item).ConfigureAwait(false);
        }
        catch (Exception) when (win.Cas != 0)
        {
            await engine.Wins.ReleaseAsync(win.Key, win.Cas, win.Placeholder).ConfigureAwait(false);
            throw;
        }

        return new Loaded<T>(value, item);
    }

    /// <summary>Stores a created value for <see cref="EntryPolicy.StoredFor"/>. With the CAS token of the placeholder or
    /// stale item this caller won, a value stored or an invalidation made since (both change the token: <c>EX</c>) wins
    /// over this one, and so does a delete (<c>NF</c>): the value may have been loaded before the update the delete
    /// stands for, so it is returned to the callers and not stored (the next get wins a new placeholder). Without a
    /// token (no placeholder could be made, or the wait timed out) the value is stored as it is.</summary>
    private Task<MemcachedStoreResult> StoreCreatedAsync(Lease lease, CacheItem item, EntryPolicy policy, ulong cas, CancellationToken token) =>
        engine.StoreAsync(StoreMode.Set, lease.Key, lease.Stored(item), policy.StoredFor, cas, token);

    /// <summary>Refreshes an entry this caller won while it still had a value, after the caller has returned it.</summary>
    private void StartRefresh<T>(Lease lease, Call<T> call, ulong cas)
    {
        // On the thread pool, without the caller's ExecutionContext: its HttpContext, Activity.Current and other
        // AsyncLocals belong to a request that will be over before the refresh is.
        using (ExecutionContext.SuppressFlow())
        {
            _ = Task.Run(() => RefreshAsync(lease, call, cas));
        }
    }

    private async Task RefreshAsync<T>(Lease lease, Call<T> call, ulong cas)
    {
        MemcachedTelemetry.RecordFactoryCall(engine.Locate(lease.Key).Endpoint, "refresh");
        try
        {
            T value = await call.Factory(engine.Lifetime).ConfigureAwait(false);
            CacheItem item = call.Format.Serialize(engine, value);
            await StoreCreatedAsync(lease, item, call.Policy, cas, engine.Lifetime).ConfigureAwait(false);
        }
        catch (Exception ex)
        {
            // The win is kept: callers are served the current value until its entry expires (at most the early-refresh
            // or stale window), then the next one creates it in the foreground. A failing backend is not retried on
            // every read meanwhile.
            if (!engine.Lifetime.IsCancellationRequested)
            {
                LogRefreshFailed(engine.Logger, ex.GetType().Name, ex);
            }
        }
    }

    [LoggerMessage(EventId = 30, Level = LogLevel.Warning, Message = "memcached GetOrCreateAsync: a background refresh failed ({ExceptionType}); the current value is served until its entry expires, then the next caller creates it")]
    private static partial void LogRefreshFailed(ILogger logger, string exceptionType, Exception exception);

    /// <summary>What a factory run holds: the item whose CAS token it won (a placeholder, or an entry marked stale), 0 for none.</summary>
    private readonly record struct Win(MemcachedKey Key, ulong Cas, bool Placeholder);
}
