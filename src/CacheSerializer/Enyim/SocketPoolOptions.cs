using System.Globalization;

namespace CacheSerializer.Enyim;

/// <summary>
/// EnyimMemcachedCore's socket pool settings. <see cref="ConnectionTimeout"/>, <see cref="ReceiveTimeout"/> and
/// <see cref="DeadTimeout"/> map to this package's ConnectTimeout, OperationTimeout and ServerDownInterval; the others
/// are accepted with nothing to map (one pipelined connection per server carries every call). A member left unset takes
/// this package's default, as in a section.
/// </summary>
public class SocketPoolOptions
{
    private int? _minPoolSize;
    private int? _maxPoolSize;
    private TimeSpan? _connectionTimeout;
    private TimeSpan? _receiveTimeout;
    private TimeSpan? _deadTimeout;
    private TimeSpan? _queueTimeout;
    private TimeSpan? _connectionIdleTimeout;
    private TimeSpan? _initPoolTimeout;

    /// <summary>Gets or sets the pool's least size: nothing to map.</summary>
    /// <value>5.</value>
    public int MinPoolSize { get => _minPoolSize ?? 5; set => _minPoolSize = value; }

    /// <summary>Gets or sets the pool's largest size: nothing to map.</summary>
    /// <value>100.</value>
    public int MaxPoolSize { get => _maxPoolSize ?? 100; set => _maxPoolSize = value; }

    /// <summary>Gets or sets the connect timeout (this package's ConnectTimeout).</summary>
    /// <value>10 s in EnyimMemcachedCore; unset, this package's 2 s.</value>
    public TimeSpan ConnectionTimeout { get => _connectionTimeout ?? TimeSpan.FromSeconds(10); set => _connectionTimeout = value; }

    /// <summary>Gets or sets the receive timeout (this package's OperationTimeout).</summary>
    /// <value>10 s in EnyimMemcachedCore; unset, this package's 2 s.</value>
    public TimeSpan ReceiveTimeout { get => _receiveTimeout ?? TimeSpan.FromSeconds(10); set => _receiveTimeout = value; }

    /// <summary>Gets or sets how long a failed server is left alone (this package's ServerDownInterval).</summary>
    /// <value>10 s in EnyimMemcachedCore; unset, this package's 2 s.</value>
    public TimeSpan DeadTimeout { get => _deadTimeout ?? TimeSpan.FromSeconds(10); set => _deadTimeout = value; }

    /// <summary>Gets or sets the wait for a free socket: nothing to map (part of the OperationTimeout).</summary>
    /// <value>100 ms.</value>
    public TimeSpan QueueTimeout { get => _queueTimeout ?? TimeSpan.FromMilliseconds(100); set => _queueTimeout = value; }

    /// <summary>Gets or sets the idle time after which a socket is closed: nothing to map (connections stay open).</summary>
    /// <value>Zero.</value>
    public TimeSpan ConnectionIdleTimeout { get => _connectionIdleTimeout ?? TimeSpan.Zero; set => _connectionIdleTimeout = value; }

    /// <summary>Gets or sets the pool's start-up timeout: nothing to map (connections open in the background).</summary>
    /// <value>1 minute.</value>
    public TimeSpan InitPoolTimeout { get => _initPoolTimeout ?? TimeSpan.FromMinutes(1); set => _initPoolTimeout = value; }

    /// <summary>The members set, as the section's <c>SocketPool</c> keys.</summary>
    internal IEnumerable<KeyValuePair<string, string?>> Settings()
    {
        (string Name, string? Value)[] members =
        [
            (nameof(MinPoolSize), _minPoolSize?.ToString(CultureInfo.InvariantCulture)),
            (nameof(MaxPoolSize), _maxPoolSize?.ToString(CultureInfo.InvariantCulture)),
            (nameof(ConnectionTimeout), _connectionTimeout?.ToString("c", CultureInfo.InvariantCulture)),
            (nameof(ReceiveTimeout), _receiveTimeout?.ToString("c", CultureInfo.InvariantCulture)),
            (nameof(DeadTimeout), _deadTimeout?.ToString("c", CultureInfo.InvariantCulture)),
            (nameof(QueueTimeout), _queueTimeout?.ToString("c", CultureInfo.InvariantCulture)),
            (nameof(ConnectionIdleTimeout), _connectionIdleTimeout?.ToString("c", CultureInfo.InvariantCulture)),
            (nameof(InitPoolTimeout), _initPoolTimeout?.ToString("c", CultureInfo.InvariantCulture)),
        ];
        return members.Where(static m => m.Value is not null).Select(static m => new KeyValuePair<string, string?>($"SocketPool:{m.Name}", m.Value));
    }
}
