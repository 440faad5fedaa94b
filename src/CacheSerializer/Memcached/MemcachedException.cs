using CacheSerializer.Memcached.Internal.Requests;

namespace CacheSerializer.Memcached;

/// <summary>A memcached operation failed; names the server, the operation and why.</summary>
public sealed class MemcachedException : CacheSerializerException
{
    /// <summary>Creates an exception with no details (for serializers and tooling).</summary>
    public MemcachedException()
    {
        Server = string.Empty;
        Operation = string.Empty;
    }

    /// <summary>Creates an exception with a message (for tooling).</summary>
    /// <param name="message">What went wrong.</param>
    public MemcachedException(string message)
        : base(message)
    {
        Server = string.Empty;
        Operation = string.Empty;
    }

    /// <summary>Creates an exception with a message and its cause (for tooling).</summary>
    /// <param name="message">What went wrong.</param>
    /// <param name="innerException">The cause.</param>
    public MemcachedException(string message, Exception? innerException)
        : base(message, innerException)
    {
        Server = string.Empty;
        Operation = string.Empty;
    }

    /// <summary>Creates an exception for a failed operation.</summary>
    /// <param name="kind">Why it failed.</param>
    /// <param name="server">The server, as <c>host:port</c>.</param>
    /// <param name="operation">The operation (get, set, add, delete, ...).</param>
    /// <param name="message">The full message, naming the server, the operation and the fix where there is one.</param>
    /// <param name="innerException">The cause, if any.</param>
    public MemcachedException(MemcachedErrorKind kind, string server, string operation, string message, Exception? innerException = null)
        : base(message, innerException)
    {
        Kind = kind;
        Server = server;
        Operation = operation;
    }

    /// <summary>Gets why the operation failed.</summary>
    public MemcachedErrorKind Kind { get; }

    /// <summary>Gets the server the operation was sent to, as <c>host:port</c>.</summary>
    public string Server { get; }

    /// <summary>Gets the operation that failed (get, set, add, delete, ...).</summary>
    public string Operation { get; }
}
