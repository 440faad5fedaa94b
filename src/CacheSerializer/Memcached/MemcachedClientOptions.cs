namespace CacheSerializer.Memcached;

/// <summary>Settings of a <see cref="MemcachedClient"/>; bind it from configuration or set it in code.</summary>
/// <remarks>
/// The client validates and copies the options when it is built, naming the offending property in the exception;
/// changing the options object afterwards does not affect a client already built.
/// </remarks>
public sealed class MemcachedClientOptions
{
    /// <summary>Gets the servers as <c>host:port</c> (IPv6 as <c>[addr]:port</c>), optionally followed by a space and a ketama weight.</summary>
    /// <value>Empty; at least one server is required. Host names are re-resolved every time a connection is opened.</value>
    public IList<string> Servers { get; } = new List<string>();

    /// <summary>Gets or sets the number of pipelined connections kept open to each server.</summary>
    /// <value>2.</value>
    public int ConnectionsPerServer { get; set; } = 2;

    /// <summary>Gets or sets the most requests queued or awaiting a reply on one connection; callers beyond it wait (back-pressure).</summary>
    /// <value>1024.</value>
    public int MaxInFlightPerConnection { get; set; } = 1024;

    /// <summary>Gets or sets how long opening a connection (name resolution and TCP connect) may take.</summary>
    /// <value>2 seconds.</value>
    public TimeSpan ConnectTimeout { get; set; } = TimeSpan.FromSeconds(2);

    /// <summary>Gets or sets how long a request may wait for a free slot, and then for its reply, before it fails with a timeout.</summary>
    /// <value>2 seconds.</value>
    public TimeSpan OperationTimeout { get; set; } = TimeSpan.FromSeconds(2);

    /// <summary>Gets or sets how long a failed server is marked down before the client tries it again in the background
    /// (and then again every interval until it answers).</summary>
    /// <value>2 seconds: a restarted memcached is used again at most about 2 seconds after it accepts connections.</value>
    public TimeSpan ServerDownInterval { get; set; } = TimeSpan.FromSeconds(2);

    /// <summary>Gets or sets a prefix put in front of every key (before hashing and before the key rule is applied).</summary>
    /// <value>Empty.</value>
    public string KeyPrefix { get; set; } = string.Empty;

    /// <summary>Gets or sets the largest value the client sends; a larger one fails before it is sent, naming its size and this limit.</summary>
    /// <value>1 MiB (1,048,576 bytes), memcached's default item size limit (<c>-I</c>).</value>
    public int MaxValueSize { get; set; } = 1024 * 1024;

    /// <summary>Gets or sets what a cache call does when its server fails (down, timed out, connection broken or refused,
    /// pipeline full): return a miss or a not-stored result, or throw <see cref="MemcachedException"/>.</summary>
    /// <value><see cref="ServerFailurePolicy.Miss"/>. Programming errors (a null key, a value over
    /// <see cref="MaxValueSize"/>, a type the transcoder cannot store), error replies and protocol errors always throw.</value>
    public ServerFailurePolicy OnServerFailure { get; set; } = ServerFailurePolicy.Miss;

    /// <summary>Gets or sets a value indicating whether a server marked down is taken off the ketama ring until it is back:
    /// its keys then go to the live servers (libmemcached's auto-eject) instead of missing.</summary>
    /// <value><see langword="false"/>: a down server's keys miss (or throw) until it is back, and never move. With
    /// ejection, a key read or written during the outage lives on another server; see <see cref="FlushOnReturn"/> for
    /// the stale values this can leave behind (docs/client.md, "Auto-eject").</value>
    public bool AutoEject { get; set; }

    /// <summary>Gets or sets a value indicating whether an ejected server is flushed (<c>flush_all</c>) when it comes back,
    /// before its keys return to it. Only used with <see cref="AutoEject"/>.</summary>
    /// <value><see langword="true"/>: a server that was unreachable but kept its memory (a network cut, a paused process)
    /// would otherwise serve the values it held before the outage, although newer ones were written elsewhere meanwhile.
    /// Set it to false only when every entry has a short expiration, or stale reads are acceptable.</value>
    public bool FlushOnReturn { get; set; } = true;

    /// <summary>Gets or sets the transcoder that turns values into stored items and back.</summary>
    /// <value><see langword="null"/>: the package's default transcoder.</value>
    public ITranscoder? Transcoder { get; set; }

    /// <summary>Gets or sets the transcoder's settings in words when <see cref="Microsoft.Extensions.DependencyInjection.MemcachedServiceCollectionExtensions"/>
    /// built it from configuration, for the start-up log.</summary>
    internal string? TranscoderDescription { get; set; }

    /// <summary>Gets or sets the host name resolver; tests wrap the system resolver to observe re-resolution.</summary>
    internal Func<string, CancellationToken, Task<System.Net.IPAddress[]>>? HostResolver { get; set; }
}
