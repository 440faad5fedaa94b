namespace CacheSerializer.Memcached;

/// <summary>Why a memcached operation failed; carried by <see cref="MemcachedException.Kind"/>.</summary>
public enum MemcachedErrorKind
{
    /// <summary>The server is marked down after an earlier failure; the operation failed fast without touching the network.</summary>
    ServerDown,

    /// <summary>The connection could not be opened (refused, unreachable, name not resolved, connect timeout).</summary>
    ConnectFailed,

    /// <summary>The connection broke (reset, closed by the server) while the request was queued or awaiting its reply.</summary>
    ConnectionBroken,

    /// <summary>The server did not answer within <see cref="MemcachedClientOptions.OperationTimeout"/>.</summary>
    Timeout,

    /// <summary>Every connection to the server has <see cref="MemcachedClientOptions.MaxInFlightPerConnection"/> requests in flight and none freed up in time.</summary>
    QueueFull,

    /// <summary>The server answered <c>SERVER_ERROR</c> (for example out of memory).</summary>
    ServerError,

    /// <summary>The server answered <c>CLIENT_ERROR</c> or <c>ERROR</c> (for example a counter on a non-numeric value).</summary>
    ClientError,

    /// <summary>The value is larger than the item size limit (the client's <see cref="MemcachedClientOptions.MaxValueSize"/> or the server's).</summary>
    ValueTooLarge,

    /// <summary>The server sent bytes that are not a valid reply to the request in flight; the connection was closed.</summary>
    ProtocolError,

    /// <summary>The TLS handshake failed: the server's certificate was rejected (untrusted issuer, expired, issued for
    /// another name), the server does not speak TLS, or it refused the client's certificate. The message says which and
    /// what to change.</summary>
    TlsHandshakeFailed,

    /// <summary>The server rejected <see cref="MemcachedClientOptions.UserName"/> and <see cref="MemcachedClientOptions.Password"/>
    /// (memcached <c>-Y</c>: the pair is not a line of its auth file).</summary>
    AuthenticationFailed,

    /// <summary>The server requires authentication (memcached <c>-Y</c>) and no <see cref="MemcachedClientOptions.UserName"/>
    /// is configured.</summary>
    AuthenticationRequired,

    /// <summary>Credentials are configured but the server does not require authentication (memcached without <c>-Y</c>):
    /// the password was not sent, and the client refuses a server that anyone can use while it expects one that is protected.</summary>
    AuthenticationNotEnabled,
}
