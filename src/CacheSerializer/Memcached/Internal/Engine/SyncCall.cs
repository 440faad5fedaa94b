namespace CacheSerializer.Memcached.Internal.Engine;

/// <summary>
/// A synchronous call of an asynchronous client path that needs no thread-pool thread: the calling thread runs the
/// path's continuations itself. While it waits, every request the path awaits hands its continuation to this call
/// instead of the thread pool (<see cref="Requests.MemcachedRequest{TResult}"/> asks <see cref="Current"/>), the
/// connection's reader thread (or the heartbeat, on a timeout or a break) only queues it here and wakes the caller,
/// and the caller runs it: so a synchronous caller blocked on a starved pool still gets its reply as soon as it arrives.
/// </summary>
/// <remarks>
/// Deserialization and the rest of the path run on the caller's thread, as they would after an <c>await</c>; nothing of
/// a caller's runs on the client's own threads. Continuations of anything else the path awaits (a connection still
/// opening, a pipeline slot when <see cref="MemcachedClientOptions.MaxInFlightPerConnection"/> is reached) go to the
/// thread pool as usual; the caller then waits for them, checking the call's task at least every
/// <see cref="RecheckMilliseconds"/> ms.
/// </remarks>
internal sealed class SyncCall
{
    /// <summary>How often a waiting caller looks at its call's task when nothing was queued to it.</summary>
    internal const int RecheckMilliseconds = 50;

    [ThreadStatic]
    private static SyncCall? t_current;

    private readonly Queue<(Action<object?> Continuation, object? State)> _queue = new();

    /// <summary>Gets the callback a request registers, with <see cref="Pending"/> as its state, to hand a continuation to
    /// its synchronous caller: it runs on the completing thread and only queues.</summary>
    internal static Action<object?> PostToCaller { get; } = static state => ((Continuation)state!).Post();

    /// <summary>Gets the synchronous call the current thread is running, if any.</summary>
    internal static SyncCall? Current => t_current;

    /// <summary>Runs <paramref name="call"/> on the current thread and waits for its result without a pool thread.</summary>
    /// <exception cref="Exception">Whatever the call throws, as <c>await</c> would throw it (not wrapped).</exception>
    internal static T Run<T>(Func<Task<T>> call)
    {
        Task<T> task = Start(call);
        return task.GetAwaiter().GetResult();
    }

    /// <summary>Runs <paramref name="call"/> on the current thread and waits for it without a pool thread.</summary>
    /// <exception cref="Exception">Whatever the call throws, as <c>await</c> would throw it (not wrapped).</exception>
    internal static void Run(Func<Task> call) => Start(call).GetAwaiter().GetResult();

    /// <summary>A continuation of this call, to register with <see cref="PostToCaller"/>.</summary>
    internal object Pending(Action<object?> continuation, object? state) => new Continuation(this, continuation, state);

    /// <summary>Queues a continuation for the waiting caller (from the thread that completed the request).</summary>
    private void Post(Action<object?> continuation, object? state)
    {
        lock (_queue)
        {
            _queue.Enqueue((continuation, state));
            Monitor.Pulse(_queue);
        }
    }

    private static TTask Start<TTask>(Func<TTask> call)
        where TTask : Task
    {
        ArgumentNullException.ThrowIfNull(call);
        SyncCall? outer = t_current;
        var sync = new SyncCall();
        t_current = sync;
        try
        {
            TTask task = call();
            sync.RunUntilCompleted(task);
            return task;
        }
        finally
        {
            t_current = outer;
        }
    }

    private void RunUntilCompleted(Task task)
    {
        // Wakes the caller when the call ends on a thread other than its own (a continuation that went to the pool).
        task.ConfigureAwait(false).GetAwaiter().UnsafeOnCompleted(() =>
        {
            lock (_queue)
            {
                Monitor.Pulse(_queue);
            }
        });
        while (!task.IsCompleted)
        {
            (Action<object?> Continuation, object? State) next;
            lock (_queue)
            {
                while (_queue.Count == 0)
                {
                    if (task.IsCompleted)
                    {
                        return;
                    }

                    Monitor.Wait(_queue, RecheckMilliseconds);
                }

                next = _queue.Dequeue();
            }

            next.Continuation(next.State);
        }
    }

    /// <summary>A continuation the waiting caller runs itself; handed over once, however many times it is posted (a
    /// request posts it itself when its reply beat the registration, and the completion source may post it too).</summary>
    private sealed class Continuation(SyncCall call, Action<object?> continuation, object? state)
    {
        private int _posted;

        internal void Post()
        {
            if (Interlocked.Exchange(ref _posted, 1) == 0)
            {
                call.Post(continuation, state);
            }
        }
    }
}
