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

    /// <summary>Gets or sets how long a failed server is marked down before the client tries it again in the background.</summary>
    /// <value>5 seconds.</value>
    public TimeSpan ServerDownInterval { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>Gets or sets a prefix put in front of every key (before hashing and before the key rule is applied).</summary>
    /// <value>Empty.</value>
    public string KeyPrefix { get; set; } = string.Empty;

    /// <summary>Gets or sets the largest value the client sends; a larger one fails before it is sent, naming its size and this limit.</summary>
    /// <value>1 MiB (1,048,576 bytes), memcached's default item size limit (<c>-I</c>).</value>
    public int MaxValueSize { get; set; } = 1024 * 1024;

    /// <summary>
    /// Gets or sets a value indicating whether reads (get, get-many, get-and-touch) whose server is down or failing return
    /// a miss instead of throwing <see cref="MemcachedException"/>. Writes always throw.
    /// </summary>
    /// <value><see langword="false"/>.</value>
    public bool MissOnServerFailure { get; set; }

    /// <summary>Gets or sets the transcoder that turns values into stored items and back.</summary>
    /// <value><see langword="null"/>: the package's default transcoder.</value>
    public ITranscoder? Transcoder { get; set; }

    /// <summary>Gets or sets the host name resolver; tests wrap the system resolver to observe re-resolution.</summary>
    internal Func<string, CancellationToken, Task<System.Net.IPAddress[]>>? HostResolver { get; set; }
}
