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
    /// <value>1: every call to a server shares one pipelined connection, as StackExchange.Redis's multiplexer does, so
    /// replies arrive in larger batches, with fewer system calls and thread wake-ups per call (measured against 2: 1.4x
    /// the operations per second at 16 calls in flight, 1.6x at 128; docs/benchmarks.md). More connections spread one
    /// client's calls over more of memcached's worker threads, and keep a large value from delaying small ones queued behind it.</value>
    public int ConnectionsPerServer { get; set; } = 1;

    /// <summary>Gets or sets the most requests queued or awaiting a reply on one connection; callers beyond it wait (back-pressure).</summary>
    /// <value>2048.</value>
    public int MaxInFlightPerConnection { get; set; } = 2048;

    /// <summary>Gets or sets how long opening a connection (name resolution, TCP connect, and when configured the TLS
    /// handshake and the authentication exchange) may take.</summary>
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
    /// <value>1 MiB (1,048,576 bytes), memcached's default item size limit (<c>-I</c>); at most 1 GiB, memcached's largest.</value>
    /// <remarks>The one value size setting of a client: its <see cref="ProtobufTranscoder"/> (the default one, or one set as
    /// <see cref="Transcoder"/>) runs with this limit, whatever its own options say, and refuses a larger value at Serialize
    /// naming its type. A reply that declares a value far above it is a protocol error, refused before it is read.</remarks>
    public int MaxValueSize { get; set; } = ProtobufTranscoderOptions.DefaultMaxValueSize;

    /// <summary>Gets or sets what a cache call does when its server fails (down, timed out, connection broken or refused,
    /// pipeline full): return a miss or a not-stored result, or throw <see cref="MemcachedException"/>.</summary>
    /// <value><see cref="ServerFailurePolicy.Miss"/>. Programming errors (a null key, a value over
    /// <see cref="MaxValueSize"/>, a type the transcoder cannot store), error replies and protocol errors always throw.</value>
    public ServerFailurePolicy OnServerFailure { get; set; } = ServerFailurePolicy.Miss;

    /// <summary>Gets or sets what a read does with an item the transcoder cannot read: an item written under another
    /// contract by another build, naming a type this build does not know, holding another type than the one asked
    /// for, under flags nothing here reads, or corrupt (truncated, a failed decompression, a body protobuf-net rejects).</summary>
    /// <value><see cref="UnreadableItemPolicy.Miss"/>: the read is a miss, logged once per type and reason and counted
    /// (docs/client.md, "Unreadable items"). Errors at Serialize (a value that cannot be stored) always throw.</value>
    public UnreadableItemPolicy OnUnreadableItem { get; set; } = UnreadableItemPolicy.Miss;

    /// <summary>Gets or sets a value indicating whether an item read as a miss because it is unreadable is deleted, only
    /// if it is still the version that was read (<c>md &lt;key&gt; C&lt;cas&gt;</c>): a value another client stored since
    /// is never removed. Only used with <see cref="UnreadableItemPolicy.Miss"/>.</summary>
    /// <value><see langword="false"/>: the item stays until it expires or the key is stored again (a cache-aside read
    /// stores it right after its miss). Turn it on when readers far outnumber writers of the same keys, so the items of
    /// another build do not cost a miss on every read until they expire.</value>
    public bool DeleteUnreadableItems { get; set; }

    /// <summary>Gets or sets which server each key is stored on. Every client of a cache must place keys alike; an
    /// application switching from EnyimMemcachedCore sets <see cref="Memcached.KeyPlacement.EnyimMemcachedCore"/> until no
    /// client places them the old way (docs/client.md, "Key placement").</summary>
    /// <value><see cref="Memcached.KeyPlacement.Ketama"/>, libmemcached's.</value>
    public KeyPlacement KeyPlacement { get; set; } = KeyPlacement.Ketama;

    /// <summary>Gets or sets how each key is rewritten before it is placed and stored (after it, <see cref="KeyPrefix"/> is
    /// put in front): one of EnyimMemcachedCore's key transformers, for an application that used one.</summary>
    /// <value><see cref="MemcachedKeyTransformer.None"/>: the key as it is.</value>
    public MemcachedKeyTransformer KeyTransformer { get; set; } = MemcachedKeyTransformer.None;

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

    /// <summary>Gets the defaults of <see cref="IMemcachedClient.GetOrCreateAsync{T}"/> and
    /// <see cref="IMemcachedClient.InvalidateAsync"/>: what a call takes for each <see cref="GetOrCreateOptions"/>
    /// property it leaves null (bind it from a <c>GetOrCreate</c> configuration section).</summary>
    /// <value>All null: expiration 5 minutes, no early refresh, no stale-while-revalidate window, lock timeout 10 seconds.</value>
    public GetOrCreateOptions GetOrCreate { get; } = new();

    /// <summary>Gets the TLS settings: whether connections are encrypted, how the servers' certificates are validated,
    /// and the client certificate.</summary>
    /// <value>TLS off; bind it from configuration as a <c>Tls</c> subsection.</value>
    public MemcachedTlsOptions Tls { get; } = new();

    /// <summary>Gets or sets the user name sent to servers that require authentication (memcached <c>-Y authfile</c>),
    /// first on each new connection. Set it together with <see cref="Password"/>.</summary>
    /// <value><see langword="null"/>: no authentication. A server that requires it then fails with
    /// <see cref="MemcachedErrorKind.AuthenticationRequired"/>.</value>
    public string? UserName { get; set; }

    /// <summary>Gets or sets the password of <see cref="UserName"/>; bind it from a secret store (user secrets, environment,
    /// a key vault) rather than appsettings.json. It never appears in logs, exception messages, metrics, spans or
    /// <see cref="ToString"/>; it is sent only to a server that asked for authentication, and in clear text unless the
    /// connection uses TLS.</summary>
    /// <value><see langword="null"/>.</value>
    public string? Password { get; set; }

    /// <summary>Gets or sets the transcoder that turns values into stored items and back.</summary>
    /// <value><see langword="null"/>: the package's default transcoder.</value>
    public ITranscoder? Transcoder { get; set; }

    /// <summary>Gets or sets the transcoder's settings in words when <see cref="Microsoft.Extensions.DependencyInjection.MemcachedServiceCollectionExtensions"/>
    /// built it from configuration, for the start-up log.</summary>
    internal string? TranscoderDescription { get; set; }

    /// <summary>Gets or sets how the transcoder built from configuration writes objects, when it built one: what makes the
    /// migration phase (<see cref="Internal.Configuration.ClientSettings.MigrationPhase"/>) also when an application wraps
    /// that transcoder afterwards.</summary>
    internal TranscoderObjectFormat? BoundObjectFormat { get; set; }

    /// <summary>Gets the problems found while binding a configuration section (a setting refused at start-up), reported
    /// with the options' own by validation.</summary>
    internal List<MemcachedConfigurationException> BindingProblems { get; } = [];

    /// <summary>Gets the warnings found while binding a configuration section (a setting that has no effect, as in the
    /// application it comes from), logged once at start-up.</summary>
    internal List<string> BindingWarnings { get; } = [];

    /// <summary>Gets or sets the EnyimMemcachedCore transcoder the section's <c>Transcoder</c> setting gives the old
    /// application, whose objects (flags 0x0101) this client reads and, in the migration phase, writes.</summary>
    internal Internal.Configuration.EnyimTranscoder EnyimTranscoder { get; set; }

    /// <summary>Gets or sets a value indicating whether the section named a transcoder at all (EnyimMemcachedCore then
    /// ignores an <c>ITranscoder</c> registered in DI).</summary>
    internal bool EnyimTranscoderNamed { get; set; }

    /// <summary>Gets or sets the codec of MessagePackTranscoder's objects: set by the compatibility package's
    /// <c>AddEnyimMemcached</c>, the one place MessagePack is referenced; null under the core's own <c>AddMemcached</c>.</summary>
    internal Transcoding.Codecs.Legacy.EnyimObjectCodec? MessagePackObjects { get; set; }

    /// <summary>Gets or sets the host name resolver; tests wrap the system resolver to observe re-resolution.</summary>
    internal Func<string, CancellationToken, Task<System.Net.IPAddress[]>>? HostResolver { get; set; }

    /// <summary>What a secret is shown as.</summary>
    internal const string Hidden = "(hidden)";

    /// <summary>Describes the options, with <see cref="Password"/> and <see cref="MemcachedTlsOptions.ClientCertificatePassword"/> hidden.</summary>
    /// <returns>The options as <c>Name = value</c> pairs.</returns>
    public override string ToString() => $"MemcachedClientOptions {{ {Internal.Configuration.ClientSettings.Describe(this)} }}";
}
