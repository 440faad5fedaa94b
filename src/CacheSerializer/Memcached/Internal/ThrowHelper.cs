using System.Diagnostics.CodeAnalysis;

namespace CacheSerializer.Memcached.Internal;

/// <summary>
/// The client's errors, built in one place, each naming the server, the operation and the fix (the transcoder's are in
/// Transcoding/ThrowHelper.cs). <c>[DoesNotReturn]</c> methods throw; the others return the exception for a
/// <c>throw</c> at the call site.
/// </summary>
internal static class ThrowHelper
{
    /// <summary>A HybridCache entry too short for the flags header the package's HybridCache serializer writes.</summary>
    public static TranscoderException HybridCacheEntryTooShort(long length, int headerLength) =>
        new(
            $"A HybridCache entry of {length} bytes is shorter than the {headerLength}-byte flags header the package's HybridCache serializer "
            + "writes; it was not written by it.",
            TranscoderErrorKind.Malformed,
            null,
            null);

    /// <summary>A <see cref="MemcachedClientOptions"/> problem: the property (or a Servers entry, "[i] ..."), what is wrong and the fix.</summary>
    public static MemcachedConfigurationException ClientOptionProblem(string property, string problem) =>
        new(property, $"MemcachedClientOptions.{property}{(problem.StartsWith('[') ? string.Empty : " ")}{problem}.");

    [DoesNotReturn]
    public static void ThrowValueTooLarge(string server, string operation, int size, int limit) =>
        throw new MemcachedException(MemcachedErrorKind.ValueTooLarge, server, operation,
            $"{operation} on {server}: the value is {size} bytes, above the limit of {limit} bytes (MemcachedClientOptions.MaxValueSize; the server's limit is memcached -I). Store smaller values or raise both limits.");

    public static MemcachedException ServerDown(string server, string operation, TimeSpan remaining, Exception? cause) =>
        new(MemcachedErrorKind.ServerDown, server, operation,
            $"{operation} on {server}: the server is marked down after a failure ({cause?.Message ?? "unknown"}); it is retried in the background, next attempt in {Math.Max(0, remaining.TotalMilliseconds):F0} ms.",
            cause);

    public static MemcachedException ConnectFailed(string server, string operation, Exception cause) =>
        new(MemcachedErrorKind.ConnectFailed, server, operation,
            $"{operation} on {server}: could not open a connection: {cause.Message}", cause);

    /// <summary>The connect timeout elapsed; <paramref name="stage"/> says where the opening was stuck ("connecting",
    /// "in the TLS handshake", "authenticating").</summary>
    public static MemcachedException ConnectTimeout(string server, string operation, TimeSpan timeout, string stage) =>
        new(MemcachedErrorKind.ConnectFailed, server, operation,
            $"{operation} on {server}: could not open a connection within {timeout.TotalMilliseconds:F0} ms (MemcachedClientOptions.ConnectTimeout); it was stuck {stage}"
            + (stage == CacheSerializer.Memcached.Internal.Connections.ConnectionStage.Handshake ? ": is the server started with TLS (memcached -Z)?" : "."));

    public static MemcachedException TlsHandshakeFailed(string server, string operation, string problem, Exception? cause) =>
        new(MemcachedErrorKind.TlsHandshakeFailed, server, operation, $"{operation} on {server}: TLS: {problem}.", cause);

    public static MemcachedException AuthenticationFailed(string server, string operation, string user, string reply) =>
        new(MemcachedErrorKind.AuthenticationFailed, server, operation,
            $"{operation} on {server}: the server rejected user '{user}' (it answered \"{reply}\"); check MemcachedClientOptions.UserName and Password against a user:password line of the server's -Y auth file.");

    public static MemcachedException AuthenticationRequired(string server, string operation) =>
        new(MemcachedErrorKind.AuthenticationRequired, server, operation,
            $"{operation} on {server}: the server requires authentication (memcached -Y) and the client has no credentials; set MemcachedClientOptions.UserName and Password.");

    public static MemcachedException AuthenticationNotEnabled(string server, string operation, string user) =>
        new(MemcachedErrorKind.AuthenticationNotEnabled, server, operation,
            $"{operation} on {server}: credentials are configured (user '{user}') but the server does not require authentication (it answered without them: memcached without -Y), so anyone can read and write it; the password was not sent. Start memcached with -Y <authfile>, or remove MemcachedClientOptions.UserName and Password.");

    public static MemcachedException QueueFull(string server, string operation, int connections, int perConnection, TimeSpan timeout) =>
        new(MemcachedErrorKind.QueueFull, server, operation,
            $"{operation} on {server}: all {connections} connections have {perConnection} requests in flight and none freed up within {timeout.TotalMilliseconds:F0} ms; raise MemcachedClientOptions.ConnectionsPerServer (currently {connections}), MaxInFlightPerConnection (currently {perConnection}) or OperationTimeout, or reduce the load.");

    public static MemcachedException Timeout(string server, string operation, TimeSpan timeout, int inFlight, long sent, long received, bool plaintext) =>
        new(MemcachedErrorKind.Timeout, server, operation,
            $"{operation} on {server}: no reply within {timeout.TotalMilliseconds:F0} ms (MemcachedClientOptions.OperationTimeout) while awaiting the reply; {inFlight} requests were in flight on the connection ({sent} bytes sent, {received} received on it); the connection was closed and the server marked down."
            + (plaintext && received == 0 ? $" Nothing was ever received on this connection: {PlaintextToTlsHint}." : string.Empty));

    /// <summary>What a plaintext connection that never got an answer says: memcached -Z resets it or never answers.</summary>
    public const string PlaintextToTlsHint = "if the server requires TLS (memcached -Z), set MemcachedClientOptions.Tls.Enabled";

    public static MemcachedException ConnectionBroken(string server, string operation, Exception? cause) =>
        new(MemcachedErrorKind.ConnectionBroken, server, operation,
            $"{operation} on {server}: the connection broke before the reply arrived ({cause?.Message ?? "closed"}); the request may or may not have been applied.",
            cause);

    public static MemcachedException NotSent(string server, string operation, Exception? cause) =>
        new(MemcachedErrorKind.ConnectionBroken, server, operation,
            $"{operation} on {server}: the connection broke before the request was sent ({cause?.Message ?? "closed"}); it was not applied.",
            cause);

    public static MemcachedException ErrorReply(string server, string operation, MemcachedErrorKind kind, string line) =>
        new(kind, server, operation, $"{operation} on {server}: the server replied \"{line}\".");

    /// <summary>The same failure as a new exception for one caller's operation (one exception object is never shared by several calls).</summary>
    public static MemcachedException ForOperation(MemcachedException ex, string operation)
    {
        string prefix = $"{ex.Operation} on {ex.Server}: ";
        string detail = ex.Message.StartsWith(prefix, StringComparison.Ordinal) ? ex.Message[prefix.Length..] : ex.Message;
        return new MemcachedException(ex.Kind, ex.Server, operation, $"{operation} on {ex.Server}: {detail}", ex.InnerException ?? ex);
    }

    public static MemcachedException ProtocolError(string server, string operation, string problem) =>
        new(MemcachedErrorKind.ProtocolError, server, operation,
            $"{operation} on {server}: protocol error: {problem}; the connection was closed.");
}
