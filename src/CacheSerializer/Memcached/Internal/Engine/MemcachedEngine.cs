using System.Diagnostics;
using System.Runtime.CompilerServices;
using CacheSerializer.Memcached.Internal.Configuration;
using CacheSerializer.Memcached.Internal.Deploys;
using CacheSerializer.Memcached.Internal.FailurePolicy;
using CacheSerializer.Memcached.Internal.GetOrCreate;
using CacheSerializer.Memcached.Internal.Nodes;
using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Reading;
using CacheSerializer.Memcached.Internal.Requests;
using CacheSerializer.Memcached.Internal.Routing;
using CacheSerializer.Memcached.Internal.Telemetry;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace CacheSerializer.Memcached.Internal.Engine;

/// <summary>
/// What a client runs on: its settings, its servers (<see cref="MemcachedNode"/>), where a key lives (<see cref="Router"/>),
/// the <see cref="Heartbeat"/> that times requests out and brings servers back, and the execution of one request
/// (telemetry, failure policy). The features are rooms of their own that take the engine: the read path
/// (<see cref="Reads"/>), build copies (<see cref="Copies"/>) and get-or-create (<see cref="Leases"/>).
/// </summary>
/// <remarks><see cref="MemcachedClient"/> is a front over it: argument checks, then one call here. The hosting adapters
/// (<c>IDistributedCache</c>, the health check, start-up) call the engine too.</remarks>
internal sealed partial class MemcachedEngine : IDisposable
{
    private readonly MemcachedNode[] _nodes;
    private readonly Router _router;
    private readonly Heartbeat _heartbeat;
    private readonly CancellationTokenSource _lifetime = new();
    private int _disposed;

    /// <summary>Creates the engine and starts its heartbeat.</summary>
    /// <exception cref="MemcachedConfigurationException">An option is invalid; the exception names it and the fix.</exception>
    internal MemcachedEngine(MemcachedClientOptions options, ILoggerFactory? loggerFactory)
    {
        Settings = ClientSettings.Create(options);
        Logger = (ILogger?)loggerFactory?.CreateLogger<MemcachedClient>() ?? NullLogger.Instance;
        _nodes = new MemcachedNode[Settings.Servers.Count];
        _heartbeat = new Heartbeat(_nodes, Settings.OperationTimeout);
        for (int i = 0; i < _nodes.Length; i++)
        {
            _nodes[i] = new MemcachedNode(Settings.Servers[i], Settings, Logger, OnNodeStateChanged, _heartbeat.Wake);
        }

        _router = new Router(_nodes, Settings, Logger);
        Items = new ItemReader(Settings.Transcoder, Settings.OnUnreadableItem, Logger, "memcached client", _router);
        Wins = new Wins(this);
        GetRequests = new GetRequestPool(Wins);
        Copies = new BuildCopies(this);
        Reads = new Reads(this);
        Leases = new Leases(this);
        _heartbeat.Start();
        StartupLog.Write(Settings, Logger);
    }

    internal ClientSettings Settings { get; }

    internal ITranscoder Transcoder => Settings.Transcoder;

    internal ILogger Logger { get; }

    /// <summary>Gets the configured servers, as <c>host:port</c>, in configuration order.</summary>
    internal IReadOnlyList<string> Servers => Array.ConvertAll(_nodes, static n => n.Name);

    /// <summary>Gets the one place a read deserializes an item and applies the unreadable-item policy.</summary>
    internal ItemReader Items { get; }

    /// <summary>Gets where wins a read cannot act on are handed back.</summary>
    internal Wins Wins { get; }

    /// <summary>Gets the read path: get, get-with-CAS, get-and-touch, many keys, raw items.</summary>
    internal Reads Reads { get; }

    /// <summary>Gets the copies that keep two builds from evicting each other during a rolling deploy.</summary>
    internal BuildCopies Copies { get; }

    /// <summary>Gets get-or-create: one factory call per expiry across the farm.</summary>
    internal Leases Leases { get; }

    /// <summary>Gets the pool the engine's reads take their requests from.</summary>
    internal GetRequestPool GetRequests { get; }

    /// <summary>Gets a token cancelled when the engine is disposed (background refreshes end with it).</summary>
    internal CancellationToken Lifetime => _lifetime.Token;

    internal bool IsDisposed => Volatile.Read(ref _disposed) != 0;

    /// <summary>Turns a caller's key into the key memcached stores (transformer, prefix, encoding).</summary>
    internal MemcachedKey Key(string key) => Settings.Key(key);

    /// <summary>The server a key lives on now.</summary>
    internal MemcachedNode Locate(in MemcachedKey key) => _router.Locate(key);

    /// <summary>The server a key lives on when every server is up, whatever is down now.</summary>
    internal MemcachedNode Home(in MemcachedKey key) => _router.Home(key);

    /// <summary>Gets the configured servers, in configuration order.</summary>
    internal IReadOnlyList<MemcachedNode> Nodes => _nodes;

    /// <summary>Stores an item; one larger than <see cref="MemcachedClientOptions.MaxValueSize"/> (from a transcoder other
    /// than the package's, which refuses it at Serialize) fails before it is sent.</summary>
    internal Task<MemcachedStoreResult> StoreAsync(StoreMode mode, MemcachedKey key, CacheItem item, TimeSpan? expiration, ulong cas, CancellationToken cancellationToken) =>
        StoreAsync(key, new StoreRequest(key, mode, item, expiration, cas), cancellationToken);

    /// <summary>Sends a store built by the caller (one that asks for the new CAS token), with the same size check.</summary>
    internal Task<MemcachedStoreResult> StoreAsync(in MemcachedKey key, StoreRequest request, CancellationToken cancellationToken)
    {
        MemcachedNode node = Locate(key);
        if (request.ValueSize > Settings.MaxValueSize)
        {
            ThrowHelper.ThrowValueTooLarge(node.Name, request.Operation, request.ValueSize, Settings.MaxValueSize);
        }

        return ExecuteAsync(node, request, cancellationToken);
    }

    /// <summary><see cref="StoreAsync(StoreMode, MemcachedKey, CacheItem, TimeSpan?, ulong, CancellationToken)"/> under a caller's key.</summary>
    internal Task<MemcachedStoreResult> StoreAsync(StoreMode mode, string key, CacheItem item, TimeSpan? expiration, ulong cas, CancellationToken cancellationToken) =>
        StoreAsync(mode, Key(key), item, expiration, cas, cancellationToken);

    /// <summary>Deletes a caller's key (<c>md</c>).</summary>
    internal Task<bool> DeleteAsync(string key, CancellationToken cancellationToken)
    {
        MemcachedKey encoded = Key(key);
        return ExecuteAsync(encoded, KeyRequest.Delete(encoded), cancellationToken);
    }

    /// <summary>Sets a new expiration on a caller's key; a win the touch receives (an item marked stale) is handed back.</summary>
    internal Task<bool> TouchAsync(string key, TimeSpan? expiration, CancellationToken cancellationToken)
    {
        MemcachedKey encoded = Key(key);
        return ExecuteAsync(encoded, KeyRequest.Touch(encoded, expiration, Wins), cancellationToken);
    }

    /// <summary>Increments or decrements a caller's key (<c>ma</c>), creating it with <paramref name="initialValue"/> if given.</summary>
    internal Task<ulong?> ArithmeticAsync(string key, bool decrement, ulong delta, ulong? initialValue, TimeSpan? expiration, CancellationToken cancellationToken)
    {
        MemcachedKey encoded = Key(key);
        return ExecuteAsync(encoded, new ArithmeticRequest(encoded, decrement, delta, initialValue, expiration), cancellationToken);
    }

    /// <summary>Sends a request on a key to the key's server.</summary>
    internal Task<TResult> ExecuteAsync<TResult>(in MemcachedKey key, MemcachedRequest<TResult> request, CancellationToken cancellationToken) =>
        ExecuteValueAsync(Locate(key), request, cancellationToken).AsTask();

    /// <summary><see cref="ExecuteValueAsync"/> for a caller that returns its task as it is.</summary>
    internal Task<TResult> ExecuteAsync<TResult>(MemcachedNode node, MemcachedRequest<TResult> request, CancellationToken cancellationToken) =>
        ExecuteValueAsync(node, request, cancellationToken).AsTask();

    /// <summary>Sends a request to its server and records the outcome (span, duration); a server failure becomes the
    /// request's failure result under <see cref="ServerFailurePolicy.Miss"/>, and is rethrown under <see cref="ServerFailurePolicy.Throw"/>.</summary>
    /// <remarks>Its state machine comes from a pool, and the request is what it awaits: a call that awaits it allocates
    /// neither (docs/benchmarks.md, "Run of 2026-11-25 (issue 25)").</remarks>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    internal async ValueTask<TResult> ExecuteValueAsync<TResult>(MemcachedNode node, MemcachedRequest<TResult> request, CancellationToken cancellationToken)
    {
        long start = Stopwatch.GetTimestamp();
        Activity? activity = MemcachedTelemetry.StartActivity(request.Operation, node.Endpoint);
        string outcome = "error";
        string? errorType = null;
        bool answered = false;
        try
        {
            TResult result = await node.ExecuteAsync(request, cancellationToken).ConfigureAwait(false);
            outcome = request.Outcome;
            answered = true;
            return result;
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            outcome = "cancelled";
            errorType = "cancelled";
            throw;
        }
        catch (MemcachedException ex)
        {
            errorType = Failures.ErrorType(ex.Kind);
            if (!Failures.IsServerFailure(ex.Kind))
            {
                throw;
            }

            node.CountFailedCall();
            if (Settings.OnServerFailure == ServerFailurePolicy.Throw || !request.FollowsFailurePolicy)
            {
                throw;
            }

            outcome = "server_failure";
            return request.FailureResult;
        }
        catch (ObjectDisposedException)
        {
            errorType = "disposed";
            throw;
        }
        finally
        {
            MemcachedTelemetry.RecordOperation(activity, node.Endpoint, request.Operation, outcome, errorType, start, request.BatchSize);
            if (answered)
            {
                request.ReleaseByCaller(); // the request is not touched here after this: it may be reused at once
            }
        }
    }

    /// <summary>Closes every connection; calls in flight fail with <see cref="MemcachedException"/> (<see cref="MemcachedErrorKind.ConnectionBroken"/>),
    /// later calls with <see cref="ObjectDisposedException"/>.</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        _heartbeat.Stop();
        _lifetime.Cancel();
        foreach (MemcachedNode node in _nodes)
        {
            node.Dispose();
        }
    }

    /// <summary>Raised on the thread that saw a server go down or come back (a reader, the heartbeat), after the router
    /// re-placed keys: a handler must only hand the news on (the compatibility package's <c>NodeFailed</c> queues it).</summary>
    internal event Action<MemcachedNode>? NodeStateChanged;

    /// <summary>A node went down or came back: the router re-places keys if auto-eject is on.</summary>
    private void OnNodeStateChanged(MemcachedNode node)
    {
        _router.OnNodeStateChanged(node);
        if (!node.IsDown)
        {
            Wins.OnServerUp(node);
        }

        NodeStateChanged?.Invoke(node);
    }
}
