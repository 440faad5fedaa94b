using System.Collections.Concurrent;

namespace CacheSerializer.Memcached.Internal.GetOrCreate;

/// <summary>In-process single flight: concurrent callers of <c>GetOrCreateAsync</c> for one key (and type) share one
/// call, so a process sends one read, runs at most one factory and polls with one loop per key however many requests
/// want it.</summary>
/// <remarks>
/// The result comes with whether this caller joined a call another started: a caller that joined shares the result
/// object, which <see cref="MemcachedClient.GetOrCreateAsync{T}"/> turns into a copy of its own for mutable types.
/// A caller that cancels stops waiting at once; the shared call is cancelled only when every caller has left, so one
/// impatient request never fails the others (HybridCache does the same). A call leaves the table before it completes,
/// so a caller that arrives after it sees memcached, never a finished call's outcome.
/// </remarks>
internal sealed class FlightTable
{
    private readonly ConcurrentDictionary<(string Key, Type Type), Flight> _flights = new();

    /// <summary>Gets how many calls are running (for tests).</summary>
    internal int Count => _flights.Count;

    /// <summary>Joins the call running for <paramref name="key"/> and <typeparamref name="T"/>, or starts one with
    /// <paramref name="work"/>, and waits for its result.</summary>
    /// <param name="key">The caller's key.</param>
    /// <param name="state">What <paramref name="work"/> needs.</param>
    /// <param name="work">The shared call; its token is cancelled when every caller has left.</param>
    /// <param name="cancellationToken">Ends this caller's wait only.</param>
    /// <returns>The result, and whether this caller joined a call another caller started.</returns>
    /// <typeparam name="T">The result's type; calls of one key with another type are other calls.</typeparam>
    /// <typeparam name="TState">What <paramref name="work"/> needs.</typeparam>
    internal Task<(T Result, bool Joined)> RunAsync<T, TState>(string key, TState state, Func<TState, CancellationToken, Task<T>> work, CancellationToken cancellationToken)
    {
        (string, Type) id = (key, typeof(T));
        while (true)
        {
            if (_flights.TryGetValue(id, out Flight? existing))
            {
                var joined = (Flight<T>)existing;
                if (joined.TryJoin())
                {
                    return joined.WaitAsync(joined: true, cancellationToken);
                }

                // Every caller left and it is being cancelled: it no longer takes callers.
                _flights.TryRemove(new KeyValuePair<(string, Type), Flight>(id, existing));
                continue;
            }

            var flight = new Flight<T>();
            if (_flights.TryAdd(id, flight))
            {
                _ = FlyAsync(id, flight, state, work);
                return flight.WaitAsync(joined: false, cancellationToken);
            }
        }
    }

    private async Task FlyAsync<T, TState>((string, Type) id, Flight<T> flight, TState state, Func<TState, CancellationToken, Task<T>> work)
    {
        T result;
        try
        {
            result = await work(state, flight.Token).ConfigureAwait(false);
        }
        catch (Exception ex)
        {
            _flights.TryRemove(new KeyValuePair<(string, Type), Flight>(id, flight));
            flight.Fail(ex);
            flight.Dispose();
            return;
        }

        _flights.TryRemove(new KeyValuePair<(string, Type), Flight>(id, flight));
        flight.Succeed(result);
        flight.Dispose();
    }

    /// <summary>The untyped handle the table holds.</summary>
    private abstract class Flight : IDisposable
    {
        public abstract void Dispose();
    }

    /// <summary>One shared call and the callers waiting for it.</summary>
    private sealed class Flight<T> : Flight
    {
        private readonly TaskCompletionSource<T> _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private readonly CancellationTokenSource _abandoned = new();
        private readonly Lock _gate = new();
        private int _callers = 1;

        internal CancellationToken Token => _abandoned.Token;

        /// <summary>Adds a caller, unless every caller has already left.</summary>
        internal bool TryJoin()
        {
            lock (_gate)
            {
                if (_callers == 0)
                {
                    return false;
                }

                _callers++;
                return true;
            }
        }

        internal async Task<(T Result, bool Joined)> WaitAsync(bool joined, CancellationToken cancellationToken)
        {
            if (!cancellationToken.CanBeCanceled)
            {
                return (await _completion.Task.ConfigureAwait(false), joined);
            }

            try
            {
                return (await _completion.Task.WaitAsync(cancellationToken).ConfigureAwait(false), joined);
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested && !_completion.Task.IsCompleted)
            {
                Leave();
                throw;
            }
        }

        internal void Succeed(T result) => _completion.TrySetResult(result);

        internal void Fail(Exception exception)
        {
            if (exception is OperationCanceledException && _abandoned.IsCancellationRequested)
            {
                _completion.TrySetCanceled(_abandoned.Token);
            }
            else
            {
                _completion.TrySetException(exception);
            }
        }

        private void Leave()
        {
            lock (_gate)
            {
                if (--_callers > 0)
                {
                    return;
                }
            }

            // Outside the lock: cancelling runs the work's registrations (a pending delay, the factory's) inline.
            try
            {
                _abandoned.Cancel();
            }
            catch (ObjectDisposedException)
            {
                // The work completed meanwhile: nothing left to cancel.
            }
        }

        /// <summary>Frees the cancellation source once the work has completed.</summary>
        public override void Dispose() => _abandoned.Dispose();
    }
}
