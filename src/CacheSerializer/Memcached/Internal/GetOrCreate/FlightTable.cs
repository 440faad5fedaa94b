using System.Collections.Concurrent;

namespace CacheSerializer.Memcached.Internal.GetOrCreate;

/// <summary>In-process single flight: concurrent callers of <c>GetOrCreateAsync</c> for one key (and type) share one
/// call, so a process sends one read, runs at most one factory and polls with one loop per key however many requests
/// want it.</summary>
/// <remarks>
/// <para>The result comes with whether this caller joined a call another started: a caller that joined shares the result
/// object, which <see cref="MemcachedClient.GetOrCreateAsync{T}"/> turns into a copy of its own for mutable types.
/// A caller that cancels stops waiting at once; the shared call is cancelled only when every caller has left, so one
/// impatient request never fails the others (HybridCache does the same). A call leaves the table before it completes,
/// so a caller that arrives after it sees memcached, never a finished call's outcome.</para>
/// <para><b>Rounds.</b> A caller is only given a result the call decided after the caller arrived: the work reports
/// each step that decides its result (<see cref="FlightRound.Decide"/>: a read of the key, a factory run), and a caller
/// that arrives after the current round decided waits for the next round, which the call runs once the current one is
/// done (one more read, shared by every caller that arrived meanwhile), unless the current round decides again first
/// (a factory run after a read that found nothing), whose result then serves them too. So no caller is handed what
/// memcached or the factory's source held before it arrived: a delete or overwrite that completed before a caller's
/// call began is never hidden from it by a read or a factory run already on its way.</para>
/// </remarks>
internal sealed class FlightTable
{
    private readonly ConcurrentDictionary<(string Key, Type Type), Flight> _flights = new();

    /// <summary>Gets how many calls are running (for tests).</summary>
    internal int Count => _flights.Count;

    /// <summary>Joins the call running for <paramref name="key"/> and <typeparamref name="T"/>, or starts one with
    /// <paramref name="work"/>, and waits for a result it decided after this caller arrived.</summary>
    /// <param name="key">The caller's key.</param>
    /// <param name="state">What <paramref name="work"/> needs.</param>
    /// <param name="work">The shared call, run once per round; it reports the steps that decide its result to the
    /// round it is given; its token is cancelled when every caller has left.</param>
    /// <param name="cancellationToken">Ends this caller's wait only.</param>
    /// <returns>The result, and whether this caller joined a call another caller started.</returns>
    /// <typeparam name="T">The result's type; calls of one key with another type are other calls.</typeparam>
    /// <typeparam name="TState">What <paramref name="work"/> needs.</typeparam>
    internal Task<(T Result, bool Joined)> RunAsync<T, TState>(string key, TState state, Func<TState, FlightRound, CancellationToken, Task<T>> work, CancellationToken cancellationToken)
    {
        (string, Type) id = (key, typeof(T));
        while (true)
        {
            if (_flights.TryGetValue(id, out Flight? existing))
            {
                var joined = (Flight<T>)existing;
                Round<T>? round = joined.TryJoin();
                if (round is not null)
                {
                    return joined.WaitAsync(round, joined: true, cancellationToken);
                }

                // Every caller left and it is being cancelled: it no longer takes callers.
                _flights.TryRemove(new KeyValuePair<(string, Type), Flight>(id, existing));
                continue;
            }

            var flight = new Flight<T>();
            if (_flights.TryAdd(id, flight))
            {
                Round<T> first = flight.Current;
                _ = FlyAsync(id, flight, state, work);
                return flight.WaitAsync(first, joined: false, cancellationToken);
            }
        }
    }

    private async Task FlyAsync<T, TState>((string, Type) id, Flight<T> flight, TState state, Func<TState, FlightRound, CancellationToken, Task<T>> work)
    {
        Round<T> round = flight.Current;
        while (true)
        {
            T result;
            try
            {
                result = await work(state, round, flight.Token).ConfigureAwait(false);
            }
            catch (Exception ex)
            {
                _flights.TryRemove(new KeyValuePair<(string, Type), Flight>(id, flight));
                flight.Fail(ex);
                flight.Dispose();
                return;
            }

            // The callers that arrived after this round decided wait for the next one; without them the call is over.
            // The last round leaves the table before its result is out, so a caller that arrives after it sees memcached.
            Round<T>? next = flight.Advance(round);
            if (next is null)
            {
                _flights.TryRemove(new KeyValuePair<(string, Type), Flight>(id, flight));
            }

            Flight<T>.Publish(round, result);
            if (next is null)
            {
                break;
            }

            round = next;
        }

        flight.Dispose();
    }

    /// <summary>The untyped handle the table holds.</summary>
    private abstract class Flight : IDisposable
    {
        public abstract void Dispose();
    }

    /// <summary>One round of a call: its result, its callers, and whether a step that decides it has begun.</summary>
    private sealed class Round<T> : FlightRound
    {
        private readonly Flight<T> _flight;

        public Round(Flight<T> flight, int callers)
        {
            _flight = flight;
            Callers = callers;
        }

        public TaskCompletionSource<T> Completion { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        /// <summary>Gets or sets whether a step that decides the result has begun (under the flight's lock).</summary>
        public bool Decided { get; set; }

        /// <summary>Gets or sets the callers waiting for this round's result (under the flight's lock).</summary>
        public int Callers { get; set; }

        /// <summary>Gets or sets whether the round's result is out, so its callers no longer count (under the flight's lock).</summary>
        public bool Over { get; set; }

        /// <summary>Gets or sets the round whose callers arrived after this one decided and before it decided again, so
        /// that its result serves them too (under the flight's lock).</summary>
        public Round<T>? Folded { get; set; }

        public override void Decide() => _flight.Decide(this);
    }

    /// <summary>One shared call, its rounds and the callers waiting for them.</summary>
    private sealed class Flight<T> : Flight
    {
        private readonly CancellationTokenSource _abandoned = new();
        private readonly Lock _gate = new();
        private Round<T>? _next;

        // The callers of the rounds not over. The call takes no more callers once it is closed: every caller has left (it
        // is being cancelled), it failed, or its last round is over.
        private int _waiting = 1;
        private bool _closed;

        public Flight()
        {
            Current = new Round<T>(this, callers: 1);
        }

        /// <summary>Gets the round running (or, before the work starts, about to).</summary>
        internal Round<T> Current { get; private set; }

        internal CancellationToken Token => _abandoned.Token;

        /// <summary>Adds a caller to a round that decides after it arrived (the current one, if it has not decided yet),
        /// unless the call is closed.</summary>
        internal Round<T>? TryJoin()
        {
            lock (_gate)
            {
                if (_closed)
                {
                    return null;
                }

                Round<T> round = Current.Decided ? _next ??= new Round<T>(this, callers: 0) : Current;
                round.Callers++;
                _waiting++;
                return round;
            }
        }

        /// <summary>A step that decides <paramref name="round"/>'s result begins: the callers waiting for the next round
        /// arrived before it, so this round's result serves them too.</summary>
        internal void Decide(Round<T> round)
        {
            lock (_gate)
            {
                round.Decided = true;
                if (_next is not null && round == Current)
                {
                    _next.Folded = round.Folded;
                    round.Folded = _next;
                    _next = null;
                }
            }
        }

        /// <summary>Ends <paramref name="done"/> (and the rounds folded into it) and moves to the next round; null when no
        /// caller waits for one: the call is then closed, and leaves the table before <see cref="Publish"/>.</summary>
        internal Round<T>? Advance(Round<T> done)
        {
            lock (_gate)
            {
                for (Round<T>? r = done; r is not null; r = r.Folded)
                {
                    r.Over = true;
                    _waiting -= r.Callers;
                }

                Round<T>? next = _next is { Callers: > 0 } && !_closed ? _next : null;
                _next = null;
                if (next is null)
                {
                    _closed = true;
                    return null;
                }

                Current = next;
                return next;
            }
        }

        /// <summary>Hands <paramref name="result"/> to the callers of <paramref name="done"/> and of the rounds folded into it.</summary>
        internal static void Publish(Round<T> done, T result)
        {
            for (Round<T>? r = done; r is not null; r = r.Folded)
            {
                r.Completion.TrySetResult(result);
            }
        }

        internal async Task<(T Result, bool Joined)> WaitAsync(Round<T> round, bool joined, CancellationToken cancellationToken)
        {
            Task<T> completion = round.Completion.Task;
            if (!cancellationToken.CanBeCanceled)
            {
                return (await completion.ConfigureAwait(false), joined);
            }

            try
            {
                return (await completion.WaitAsync(cancellationToken).ConfigureAwait(false), joined);
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested && !completion.IsCompleted)
            {
                Leave(round);
                throw;
            }
        }

        /// <summary>Fails the round running, the rounds folded into it and the one waiting, if any.</summary>
        internal void Fail(Exception exception)
        {
            Round<T>? next;
            lock (_gate)
            {
                next = _next;
                _closed = true;
            }

            for (Round<T>? r = Current; r is not null; r = r.Folded)
            {
                Fail(r, exception);
            }

            if (next is not null)
            {
                Fail(next, exception);
            }
        }

        private void Fail(Round<T> round, Exception exception)
        {
            if (exception is OperationCanceledException && _abandoned.IsCancellationRequested)
            {
                round.Completion.TrySetCanceled(_abandoned.Token);
            }
            else
            {
                round.Completion.TrySetException(exception);
            }
        }

        private void Leave(Round<T> round)
        {
            lock (_gate)
            {
                if (round.Over)
                {
                    return; // its result came out meanwhile: nothing is waiting on this caller any more
                }

                round.Callers--;
                if (--_waiting > 0)
                {
                    return;
                }

                _closed = true;
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

/// <summary>What the shared call of a <see cref="FlightTable"/> round reports: that a step deciding its result begins.</summary>
internal abstract class FlightRound
{
    /// <summary>Records that a step whose outcome may become the result begins (a read of the key, a factory run): a
    /// caller that arrives from now on waits for the next round.</summary>
    public abstract void Decide();
}
