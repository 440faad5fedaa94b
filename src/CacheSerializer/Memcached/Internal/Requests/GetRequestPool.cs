using System.Collections.Concurrent;
using CacheSerializer.Memcached.Internal.GetOrCreate;

namespace CacheSerializer.Memcached.Internal.Requests;

/// <summary>A client's answered <see cref="GetRequest"/>s, waiting to be reused by its next reads (docs/client.md,
/// "Allocation"): reads are the commonest call, and a request is the largest object a read allocated.</summary>
/// <remarks>
/// A request comes back here only when both its holders gave it up: its caller after taking its result, and its
/// connection after publishing it. One that failed (timeout, broken connection, cancellation) is left to the garbage
/// collector, since its connection, a timer or a cancellation callback may still hold it. Bounded: beyond
/// <see cref="Capacity"/> waiting, returned requests are dropped.
/// </remarks>
/// <param name="wins">Where the pool's plain reads hand back a win they cannot act on (see <see cref="GetRequest"/>);
/// null to keep it (tests).</param>
internal sealed class GetRequestPool(Wins? wins = null)
{
    /// <summary>How many requests wait at most: above the requests in flight of a busy client at the defaults.</summary>
    internal const int Capacity = 1024;

    private readonly ConcurrentQueue<GetRequest> _items = new();
    private int _count;
    private long _created;

    /// <summary>Gets where the pool's plain reads hand back a win they cannot act on.</summary>
    internal Wins? Wins => wins;

    /// <summary>Gets how many requests wait for reuse.</summary>
    internal int Count => Volatile.Read(ref _count);

    /// <summary>Gets how many requests were created for this pool (the rest of its reads reused one).</summary>
    internal long CreatedCount => Interlocked.Read(ref _created);

    /// <summary>Takes a waiting request, or creates one when none waits.</summary>
    internal GetRequest Rent()
    {
        if (_items.TryDequeue(out GetRequest? request))
        {
            Interlocked.Decrement(ref _count);
            return request;
        }

        Interlocked.Increment(ref _created);
        return new GetRequest(this);
    }

    /// <summary>Puts back a request both holders gave up (already reset), unless <see cref="Capacity"/> wait already.</summary>
    internal void Return(GetRequest request)
    {
        if (Interlocked.Increment(ref _count) <= Capacity)
        {
            _items.Enqueue(request);
        }
        else
        {
            Interlocked.Decrement(ref _count);
        }
    }
}
