using System.Diagnostics;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Runtime.ExceptionServices;
using CacheSerializer.Memcached.Internal.Configuration;
using CacheSerializer.Memcached.Internal.FailurePolicy;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Memcached.Internal.Telemetry;

namespace CacheSerializer.Memcached.Internal.Connections;

/// <summary>One pipelined connection to a server: its pipeline slots, the FIFO of requests awaiting a reply, and its
/// break. Requests are written by its <see cref="ConnectionWriter"/> and their replies read by its
/// <see cref="ConnectionReader"/>; over TLS both go through its <see cref="TlsFraming"/>.</summary>
/// <remarks>
/// <para>Nothing here waits for the thread pool (StackExchange.Redis's synchronous mode reads on a thread of its own for
/// the same reason): the read loop and the write thread are threads of their own, and a caller sends on its own thread,
/// without blocking, only when the write side is free. A pool starved by blocking callers or a burst of work therefore
/// never stops replies from being read or requests from being written, and never turns into timeouts. Completions are
/// handed to the pool (<see cref="MemcachedRequest{TResult}"/> completes its task asynchronously), so no caller's code
/// ever runs on these threads.</para>
/// <para>A connection is used until it breaks, and a broken connection is never used again (<see cref="Break"/> is safe
/// to call twice): every request queued or awaiting a reply on it fails (<see cref="Failures.ForWritten"/>,
/// <see cref="Failures.ForUnsent"/>), the socket is closed, and its owner hears of it through the callback given at open
/// (it drops the connection and opens a new one on demand). A connection becomes usable only when
/// <see cref="OpenAsync"/> returns, after the TLS handshake and the authentication exchange when they are configured
/// (<see cref="ConnectionOpening"/>).</para>
/// </remarks>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Design", "CA1001:Types that own disposable fields should be disposable",
    Justification = "The semaphore's wait handle is never created (AvailableWaitHandle is not used), so it holds nothing to dispose; Break closes the socket, and the read thread frees the TLS session when it ends.")]
internal sealed class MemcachedConnection
{
    /// <summary>The loops use little stack: a small one keeps two threads per connection cheap.</summary>
    private const int LoopStackBytes = 256 * 1024;

    private readonly PolledSocket _socket;
    private readonly bool _plaintext;
    private readonly ServerEndpoint _endpoint;
    private readonly int _maxInFlight;
    private readonly Action<MemcachedConnection, MemcachedErrorKind, Exception> _onBroken;
    private readonly SemaphoreSlim _slots;
    private readonly Queue<MemcachedRequest> _awaitingReply = new();
    private readonly ConnectionWriter _writer;
    private readonly ConnectionReader _reader;
    private Exception? _breakCause;

    private MemcachedConnection(PolledSocket socket, TlsFraming? tls, ServerEndpoint endpoint, ClientSettings settings, Action<MemcachedConnection, MemcachedErrorKind, Exception> onBroken)
    {
        _socket = socket;
        _plaintext = tls is null;
        _endpoint = endpoint;
        _maxInFlight = settings.MaxInFlightPerConnection;
        _onBroken = onBroken;
        _slots = new SemaphoreSlim(_maxInFlight, _maxInFlight);
        _writer = new ConnectionWriter(this, socket, tls, endpoint);
        _reader = new ConnectionReader(this, socket, tls, endpoint, settings.MaxReplyData);
        MemcachedTelemetry.ConnectionOpened(endpoint);
        _writer.Start();
        _reader.Start();
    }

    internal bool IsBroken => Volatile.Read(ref _breakCause) is not null;

    internal int InFlight => _maxInFlight - _slots.CurrentCount;

    /// <summary>Gets how many bytes were sent on the connection (before TLS).</summary>
    internal long BytesSent => _writer.BytesSent;

    /// <summary>Gets the operation of the oldest request awaiting a reply, or "read" when none is.</summary>
    internal string HeadOperation
    {
        get
        {
            lock (_awaitingReply)
            {
                return _awaitingReply.TryPeek(out MemcachedRequest? head) ? head.Operation : "read";
            }
        }
    }

    /// <summary>Resolves the host (every time: servers in containers change address), connects, and runs the TLS handshake
    /// and the authentication exchange when configured, all within the connect timeout.</summary>
    /// <remarks>The task completes on the opening's own thread, with no continuation of ours between (an
    /// <c>await</c> whose task completes while it registers queues its continuation to the pool, which a starved pool
    /// would then hold: the open of a probe or a reconnect would never end). A host name is resolved on that thread too,
    /// which waits for the resolver's task rather than awaiting it, so its end needs no pool thread either.</remarks>
    /// <param name="endpoint">The server.</param>
    /// <param name="settings">The client's settings (timeouts, limits, resolver, TLS, credentials).</param>
    /// <param name="onBroken">Called once, from whichever thread found the break, when the connection breaks.</param>
    /// <param name="cancellationToken">Cancels the connect (the client is being disposed).</param>
    /// <exception cref="MemcachedException">The connect timed out, TLS or authentication failed.</exception>
    /// <exception cref="SocketException">The connect failed (refused, unreachable, name not resolved).</exception>
    internal static Task<MemcachedConnection> OpenAsync(ServerEndpoint endpoint, ClientSettings settings, Action<MemcachedConnection, MemcachedErrorKind, Exception> onBroken, CancellationToken cancellationToken)
    {
        long deadline = ConnectDeadline(settings);
        return OnOwnThread(() => Open(Addresses(deadline, endpoint, settings, cancellationToken), deadline, endpoint, settings, onBroken, cancellationToken));
    }

    /// <summary>When an opening started now must be over (a <see cref="Stopwatch"/> timestamp): the connect timeout.</summary>
    private static long ConnectDeadline(ClientSettings settings) =>
        Stopwatch.GetTimestamp() + (long)(settings.ConnectTimeout.TotalSeconds * Stopwatch.Frequency);

    /// <summary>The server's addresses: its literal address, or its host name resolved on the calling thread.</summary>
    private static IPAddress[] Addresses(long deadline, ServerEndpoint endpoint, ClientSettings settings, CancellationToken cancellationToken) =>
        IPAddress.TryParse(endpoint.Host, out IPAddress? literal) ? [literal] : Resolve(deadline, endpoint, settings, cancellationToken);

    /// <summary>Resolves the host name on the opening's thread, within the connect timeout: the thread waits for the
    /// resolver's task (a wait is signalled by whichever thread completes the task, never through the pool).</summary>
    private static IPAddress[] Resolve(long deadline, ServerEndpoint endpoint, ClientSettings settings, CancellationToken cancellationToken)
    {
        using var resolving = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        Task<IPAddress[]> resolution = settings.HostResolver(endpoint.Host, resolving.Token);
        TimeSpan left = Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), deadline);
        bool done;
        try
        {
            done = resolution.Wait(left > TimeSpan.Zero ? left : TimeSpan.Zero, cancellationToken);
        }
        catch (AggregateException e) when (e.InnerExceptions.Count == 1)
        {
            ExceptionDispatchInfo.Throw(e.InnerExceptions[0]);
            throw;
        }

        if (!done)
        {
            resolving.Cancel(); // the resolver may stop; its late result or failure is observed below and dropped
            BackgroundTask.ObserveFailure(resolution);
            throw ThrowHelper.ConnectTimeout(endpoint.Name, "connect", settings.ConnectTimeout, ConnectionStage.Connecting);
        }

        return resolution.Result;
    }

    /// <summary>Opens a plaintext socket for a synchronous caller's <see cref="BlockingConnection"/> on the calling thread:
    /// resolved, connected and greeted (authenticated) as <see cref="OpenAsync"/> does, within the connect timeout.</summary>
    /// <exception cref="MemcachedException">The connect failed or timed out, or the greeting was refused.</exception>
    internal static PolledSocket OpenPlaintext(ServerEndpoint endpoint, ClientSettings settings, CancellationToken cancellationToken)
    {
        long deadline = ConnectDeadline(settings);
        try
        {
            (PolledSocket socket, _) = Connect(Addresses(deadline, endpoint, settings, cancellationToken), deadline, endpoint, settings, cancellationToken);
            return socket;
        }
        catch (Exception ex) when (ex is not MemcachedException)
        {
            throw ThrowHelper.ConnectFailed(endpoint.Name, "connect", ex);
        }
    }

    /// <summary>The opening, on its own thread: each address in turn until one connects, within the deadline.</summary>
    private static MemcachedConnection Open(IPAddress[] addresses, long deadline, ServerEndpoint endpoint, ClientSettings settings, Action<MemcachedConnection, MemcachedErrorKind, Exception> onBroken, CancellationToken cancellationToken)
    {
        (PolledSocket socket, TlsFraming? tls) = Connect(addresses, deadline, endpoint, settings, cancellationToken);
        return new MemcachedConnection(socket, tls, endpoint, settings, onBroken);
    }

    /// <summary>Each address in turn until one connects and is greeted, within the deadline.</summary>
    private static (PolledSocket Socket, TlsFraming? Tls) Connect(IPAddress[] addresses, long deadline, ServerEndpoint endpoint, ClientSettings settings, CancellationToken cancellationToken)
    {
        if (addresses.Length == 0)
        {
            throw new SocketException((int)SocketError.HostNotFound);
        }

        using var timeoutSource = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var opening = new ConnectionOpening(endpoint, settings);
        try
        {
            SocketException? last = null;
            foreach (IPAddress address in addresses)
            {
                var io = new PolledSocket(address.AddressFamily);
                io.TimesOutAt(deadline, timeoutSource);
                try
                {
                    return (io, opening.Run(io, new IPEndPoint(address, endpoint.Port), timeoutSource.Token));
                }
                catch (SocketException ex)
                {
                    last = ex;
                    io.CloseSocket();
                }
                catch
                {
                    io.CloseSocket();
                    throw;
                }
            }

            throw last!;
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw ThrowHelper.ConnectTimeout(endpoint.Name, "connect", settings.ConnectTimeout, opening.Stage);
        }
    }

    /// <summary>Runs the opening on a thread of its own, waiting in <c>poll</c> (at most until its deadline).</summary>
    /// <remarks>Not <see cref="Socket.ConnectAsync(EndPoint, CancellationToken)"/> nor <see cref="SslStream.AuthenticateAsClientAsync(SslClientAuthenticationOptions, CancellationToken)"/>:
    /// a socket that ever ran an asynchronous operation is registered with .NET's shared epoll thread for good, which
    /// then wakes on every reply the read thread takes (measured with strace: one <c>epoll_wait</c> per receive,
    /// docs/benchmarks.md); and the opening must not wait for the thread pool either.</remarks>
    private static Task<MemcachedConnection> OnOwnThread(Func<MemcachedConnection> open) =>
        Task.Factory.StartNew(open, CancellationToken.None, TaskCreationOptions.LongRunning | TaskCreationOptions.DenyChildAttach, TaskScheduler.Default);

    /// <summary>Takes a pipeline slot without waiting.</summary>
    internal bool TryTakeSlot() => !IsBroken && _slots.Wait(0);

    /// <summary>Waits for a pipeline slot (back-pressure); false when none freed up within the timeout.</summary>
    internal Task<bool> WaitForSlotAsync(TimeSpan timeout, CancellationToken cancellationToken) => _slots.WaitAsync(timeout, cancellationToken);

    /// <summary>Gives back a slot: its request was answered, dropped before it was written, or will not be sent (the
    /// connection broke meanwhile).</summary>
    internal void ReleaseSlot()
    {
        try
        {
            _slots.Release();
        }
        catch (SemaphoreFullException)
        {
        }
    }

    /// <summary>Queues a request whose slot was taken and sends it (<see cref="ConnectionWriter.Send"/>).</summary>
    internal void Send(MemcachedRequest request) => _writer.Send(request);

    /// <summary>The writer wrote a request: it awaits its reply. False when the connection broke meanwhile (the request
    /// is not in the FIFO that the break failed).</summary>
    internal bool AwaitReply(MemcachedRequest request)
    {
        lock (_awaitingReply)
        {
            if (IsBroken)
            {
                return false;
            }

            _awaitingReply.Enqueue(request);
            return true;
        }
    }

    /// <summary>The reader's next request to hand reply bytes to: the oldest awaiting a reply, or null.</summary>
    internal MemcachedRequest? PeekAwaiting()
    {
        lock (_awaitingReply)
        {
            return _awaitingReply.TryPeek(out MemcachedRequest? head) ? head : null;
        }
    }

    /// <summary>The oldest request awaiting a reply has its whole reply: it leaves the FIFO and frees its slot. False when
    /// a break took it first (the break fails it; the read side must then not publish it, nor give it back to a pool).</summary>
    internal bool Answered(MemcachedRequest request)
    {
        lock (_awaitingReply)
        {
            if (!_awaitingReply.TryPeek(out MemcachedRequest? head) || !ReferenceEquals(head, request))
            {
                return false;
            }

            _awaitingReply.Dequeue();
        }

        _slots.Release();
        return true;
    }

    /// <summary>Breaks the connection if the request at the head of the FIFO has waited longer than the timeout.</summary>
    internal bool CheckTimeout(long now, TimeSpan timeout)
    {
        string operation;
        int count;
        lock (_awaitingReply)
        {
            // Read under the lock: once answered, a request may be given back to its pool and reused by another call.
            if (!_awaitingReply.TryPeek(out MemcachedRequest? head) || Stopwatch.GetElapsedTime(head.WrittenTimestamp, now) <= timeout)
            {
                return false;
            }

            operation = head.Operation;
            count = _awaitingReply.Count;
        }

        MemcachedException error = ThrowHelper.Timeout(_endpoint.Name, operation, timeout, count, _writer.BytesSent, _reader.BytesReceived, _plaintext);
        Break(error, MemcachedErrorKind.Timeout);
        return true;
    }

    /// <summary>Closes the connection for good and fails everything queued or awaiting a reply on it: what each request
    /// gets depends on whether it was written (<see cref="Failures.ForWritten"/>, <see cref="Failures.ForUnsent"/>).</summary>
    internal void Break(Exception cause, MemcachedErrorKind kind)
    {
        if (Interlocked.CompareExchange(ref _breakCause, cause, null) is not null)
        {
            return;
        }

        _socket.CloseSocket(); // wakes the read thread's poll at once

        MemcachedTelemetry.ConnectionClosed(_endpoint);

        // The node first (a break that marks the server down publishes it there), then the callers: a caller told of
        // the break runs on at once on another core (continuations are asynchronous), and its next call must find the
        // server down, failing fast with ServerDown, rather than open a new connection to the server that just failed.
        _onBroken(this, kind, cause);

        List<MemcachedRequest> written;
        lock (_awaitingReply)
        {
            written = [.. _awaitingReply];
            _awaitingReply.Clear();
        }

        // Closed by the client (a timeout, the server marked down): the server may still run what was written, a frozen
        // one once it runs again, and answer into a closed connection.
        bool unanswered = kind is MemcachedErrorKind.Timeout or MemcachedErrorKind.ServerDown;
        for (int i = 0; i < written.Count; i++)
        {
            MemcachedRequest request = written[i];
            if (unanswered)
            {
                request.OnUnanswered();
            }

            request.Fail(Failures.ForWritten(cause, oldest: i == 0, _endpoint.Name, request.Operation));
        }

        // Fail what is queued and wake the write thread (it sees the break and ends), and wake the callers waiting for a
        // slot on this connection: each one that wakes finds it broken, passes its slot on (ReleaseSlot) and fails at
        // once, instead of timing out as "queue full".
        _writer.Stop();
        ReleaseSlot();
    }

    /// <summary>Broken connections only: the failure of a request that was never written on it (<see cref="Failures.ForUnsent"/>).</summary>
    internal MemcachedException NotSentError(string operation) => Failures.ForUnsent(Volatile.Read(ref _breakCause), _endpoint.Name, operation);

    /// <summary>Starts one of a connection's loops on a background thread of its own, named after its role and server.</summary>
    internal static void StartThread(ThreadStart loop, string role, string server)
    {
        var thread = new Thread(loop, LoopStackBytes)
        {
            IsBackground = true,
            Name = $"memcached {role} {server}",
        };
        thread.Start();
    }
}
