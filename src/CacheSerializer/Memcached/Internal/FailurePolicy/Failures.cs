using CacheSerializer.Memcached.Internal.Protocol;
using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached.Internal.FailurePolicy;

/// <summary>The one home of failure classification: what each <see cref="MemcachedErrorKind"/> means for the server's
/// health, for the caller's outage policy and for the metrics, which kind an error reply is, and which exception a
/// request gets when its connection breaks.</summary>
/// <remarks>
/// Every decision about a failure is made from its kind, never from its message: replies are classified once, from the
/// code <see cref="MetaReplyParser"/> parsed (<see cref="OfErrorReply"/>), and the connection, the node and the client ask
/// here rather than keep switches of their own (docs/client.md, "Failure policy").
/// </remarks>
internal static class Failures
{
    /// <summary>Whether a failure is the server refusing the client's TLS or authentication settings: a misconfiguration,
    /// which start-up and the health check report as such and calls fail with while it lasts.</summary>
    internal static bool IsRefusal(MemcachedErrorKind kind) =>
        kind is MemcachedErrorKind.TlsHandshakeFailed or MemcachedErrorKind.AuthenticationFailed
            or MemcachedErrorKind.AuthenticationRequired or MemcachedErrorKind.AuthenticationNotEnabled;

    /// <summary>Whether a connection that broke for this reason marks its server down: a timeout, a connect that failed
    /// (or a plaintext connection the server closed before answering anything), or a refusal. Any other close or reset
    /// only drops the connection; the next request reconnects.</summary>
    internal static bool MarksServerDown(MemcachedErrorKind kind) =>
        kind is MemcachedErrorKind.Timeout or MemcachedErrorKind.ConnectFailed || IsRefusal(kind);

    /// <summary>Whether <see cref="MemcachedClientOptions.OnServerFailure"/> applies: the server down or unreachable, and
    /// the server refusing the client's TLS or credentials (a misconfiguration of the cache must not take the application
    /// down either; start-up, the outage log and the health check report it). Error replies and protocol errors are not
    /// server failures: they are thrown.</summary>
    internal static bool IsServerFailure(MemcachedErrorKind kind) =>
        kind is MemcachedErrorKind.ServerDown or MemcachedErrorKind.ConnectFailed or MemcachedErrorKind.ConnectionBroken
            or MemcachedErrorKind.Timeout or MemcachedErrorKind.QueueFull || IsRefusal(kind);

    /// <summary>The <c>error.type</c> of a failure on spans and metrics: the kind's name in snake case.</summary>
    internal static string ErrorType(MemcachedErrorKind kind) => kind switch
    {
        MemcachedErrorKind.ServerDown => "server_down",
        MemcachedErrorKind.ConnectFailed => "connect_failed",
        MemcachedErrorKind.ConnectionBroken => "connection_broken",
        MemcachedErrorKind.Timeout => "timeout",
        MemcachedErrorKind.QueueFull => "queue_full",
        MemcachedErrorKind.ServerError => "server_error",
        MemcachedErrorKind.ClientError => "client_error",
        MemcachedErrorKind.ValueTooLarge => "value_too_large",
        MemcachedErrorKind.ProtocolError => "protocol_error",
        MemcachedErrorKind.TlsHandshakeFailed => "tls_handshake_failed",
        MemcachedErrorKind.AuthenticationFailed => "authentication_failed",
        MemcachedErrorKind.AuthenticationRequired => "authentication_required",
        MemcachedErrorKind.AuthenticationNotEnabled => "authentication_not_enabled",
        _ => "_OTHER",
    };

    /// <summary>The kind of an error reply, from the code the parser read and the line's text: an item over the server's
    /// size limit (memcached says "too large" in either error form), else <c>SERVER_ERROR</c> or a client error
    /// (<c>CLIENT_ERROR</c>, <c>ERROR</c>).</summary>
    internal static MemcachedErrorKind OfErrorReply(MetaReplyCode code, ReadOnlySpan<byte> line) =>
        line.IndexOf("too large"u8) >= 0 ? MemcachedErrorKind.ValueTooLarge
        : code == MetaReplyCode.ServerError ? MemcachedErrorKind.ServerError
        : MemcachedErrorKind.ClientError;

    /// <summary>What a request that was written on a connection gets when the connection breaks: it may have been applied,
    /// so <see cref="MemcachedErrorKind.ConnectionBroken"/>, except that the oldest one gets the timeout that broke the
    /// connection, and every one gets the refusal (a protocol error, authentication required) when the server refused them all.</summary>
    /// <param name="cause">Why the connection broke.</param>
    /// <param name="oldest">Whether the request is the oldest awaiting a reply (the one that timed out, when one did).</param>
    /// <param name="server">The server's name.</param>
    /// <param name="operation">The request's operation.</param>
    internal static Exception ForWritten(Exception cause, bool oldest, string server, string operation) => cause switch
    {
        MemcachedException { Kind: MemcachedErrorKind.Timeout } timeout when oldest => timeout,
        MemcachedException { Kind: MemcachedErrorKind.ProtocolError or MemcachedErrorKind.AuthenticationRequired } refused => ThrowHelper.ForOperation(refused, operation),
        _ => ThrowHelper.ConnectionBroken(server, operation, cause),
    };

    /// <summary>What a request never written on a broken connection gets, wherever it was stopped (queued, taken by the
    /// writer, or waiting for a slot): <see cref="MemcachedErrorKind.ServerDown"/> or the server's refusal (TLS,
    /// authentication) when that is why the connection broke, so every caller of a refused connection hears the same
    /// reason; otherwise <see cref="MemcachedErrorKind.ConnectionBroken"/>, saying it was not applied.</summary>
    internal static MemcachedException ForUnsent(Exception? cause, string server, string operation) =>
        cause is MemcachedException { Kind: var kind } reason && (kind == MemcachedErrorKind.ServerDown || IsRefusal(kind))
            ? ThrowHelper.ForOperation(reason, operation)
            : ThrowHelper.NotSent(server, operation, cause);

    /// <summary>Why a connection's read side stopped, as the cause and kind it breaks the connection with.</summary>
    /// <param name="error">What the read threw; null when the server closed the connection.</param>
    /// <param name="neverAnswered">Whether the connection is plaintext and the server closed or reset it before answering
    /// anything it was sent: a server that refuses it, most likely one that requires TLS (memcached -Z 1.6.18 resets it).
    /// That counts as a failed connect, which marks the server down (logged once) instead of failing call after call on
    /// new connections.</param>
    /// <param name="server">The server's name.</param>
    /// <param name="operation">The operation awaiting a reply (for a protocol error's message).</param>
    internal static (Exception Cause, MemcachedErrorKind Kind) OfReadFailure(Exception? error, bool neverAnswered, string server, string operation) => error switch
    {
        MemcachedException refused => (refused, refused.Kind), // a server that requires authentication the client was not given
        ProtocolViolationException violation => (ThrowHelper.ProtocolError(server, operation, violation.Message), MemcachedErrorKind.ProtocolError),
        _ when neverAnswered => (new IOException($"{server} closed the connection before answering anything ({error?.Message ?? "end of stream"}); {ThrowHelper.PlaintextToTlsHint}", error), MemcachedErrorKind.ConnectFailed),
        _ => (error ?? new IOException($"{server} closed the connection"), MemcachedErrorKind.ConnectionBroken),
    };
}
