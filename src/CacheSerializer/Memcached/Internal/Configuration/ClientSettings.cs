using CacheSerializer.Memcached.Internal.GetOrCreate;

namespace CacheSerializer.Memcached.Internal.Configuration;

/// <summary>The validated, immutable copy of <see cref="MemcachedClientOptions"/> a client runs with.</summary>
internal sealed class ClientSettings
{
    private readonly TlsSettings _tls;

    private ClientSettings(MemcachedClientOptions options, IReadOnlyList<ServerEndpoint> servers, TlsSettings tls, Credentials? credentials, ITranscoder transcoder)
    {
        Servers = servers;
        _tls = tls;
        Credentials = credentials;
        ConnectionsPerServer = options.ConnectionsPerServer;
        MaxInFlightPerConnection = options.MaxInFlightPerConnection;
        ConnectTimeout = options.ConnectTimeout;
        OperationTimeout = options.OperationTimeout;
        ServerDownInterval = options.ServerDownInterval;
        KeyPrefix = options.KeyPrefix;
        KeyTransformer = options.KeyTransformer;
        MaxValueSize = options.MaxValueSize;
        MaxReplyData = options.MaxValueSize + Protocol.MetaReplyParser.ReplyMargin;
        OnServerFailure = options.OnServerFailure;
        OnUnreadableItem = options.OnUnreadableItem;
        DeleteUnreadableItems = options.DeleteUnreadableItems;
        AutoEject = options.AutoEject;
        KeyPlacement = options.KeyPlacement;
        FlushOnReturn = options.FlushOnReturn;
        GetOrCreate = EntryPolicy.FromDefaults(options.GetOrCreate);
        Transcoder = transcoder;
        PooledReads = transcoder is ProtobufTranscoder;
        TranscoderDescription = options.TranscoderDescription
            ?? (options.Transcoder is null ? $"ProtobufTranscoder (defaults, MaxValueSize {options.MaxValueSize} bytes)" : transcoder.GetType().FullName!);
        HostResolver = options.HostResolver ?? ResolveOnOwnThread;
    }

    internal IReadOnlyList<ServerEndpoint> Servers { get; }

    internal int ConnectionsPerServer { get; }

    internal int MaxInFlightPerConnection { get; }

    internal TimeSpan ConnectTimeout { get; }

    internal TimeSpan OperationTimeout { get; }

    internal TimeSpan ServerDownInterval { get; }

    internal string KeyPrefix { get; }

    internal MemcachedKeyTransformer KeyTransformer { get; }

    /// <summary>Turns a caller's key into the key memcached stores and placement hashes: the transformer's rewrite, behind the prefix.</summary>
    internal Protocol.MemcachedKey Key(string key) =>
        Protocol.MemcachedKey.Create(KeyPrefix, KeyTransformer == MemcachedKeyTransformer.None ? key : Protocol.KeyTransform.Apply(KeyTransformer, key));

    /// <summary>Gets the largest value the client stores: <see cref="MemcachedClientOptions.MaxValueSize"/>, the one limit,
    /// which its transcoder also runs with (<see cref="PackageDefaults.Transcoder"/>).</summary>
    internal int MaxValueSize { get; }

    /// <summary>Gets a value indicating whether a value read may be copied into a rented array, given back once the
    /// transcoder has read it: <see cref="ProtobufTranscoder"/> documents that Deserialize keeps no reference to the
    /// item's array; another transcoder may keep it, so it gets an array of its own.</summary>
    internal bool PooledReads { get; }

    /// <summary>Gets the largest value a reply may declare before the connection calls it a protocol error and reads
    /// nothing of it (<see cref="MaxValueSize"/> plus <see cref="Protocol.MetaReplyParser.ReplyMargin"/>).</summary>
    internal int MaxReplyData { get; }

    internal ServerFailurePolicy OnServerFailure { get; }

    internal UnreadableItemPolicy OnUnreadableItem { get; }

    internal bool DeleteUnreadableItems { get; }

    internal bool AutoEject { get; }

    internal KeyPlacement KeyPlacement { get; }

    internal bool FlushOnReturn { get; }

    /// <summary>Gets the defaults of <c>GetOrCreateAsync</c> and <c>InvalidateAsync</c>.</summary>
    internal EntryPolicy GetOrCreate { get; }

    internal ITranscoder Transcoder { get; }

    /// <summary>Gets the user and password sent first on each connection, or null for no authentication.</summary>
    internal Credentials? Credentials { get; }

    /// <summary>Gets the TLS settings when any server uses TLS (for the start-up log's warnings), else null.</summary>
    internal TlsSettings? Tls => Servers.Any(UsesTls) ? _tls : null;

    /// <summary>Gets the transcoder and its settings in words, for the start-up log.</summary>
    internal string TranscoderDescription { get; }

    /// <summary>Gets the resolver called on every connect (the system's DNS unless a test wraps it).</summary>
    internal Func<string, CancellationToken, Task<System.Net.IPAddress[]>> HostResolver { get; }

    /// <summary>The system resolver, on a thread of its own: Dns.GetHostAddressesAsync completes through the thread pool
    /// on Linux (measured: a server given by name never came back within 20 s of an outage while callers held every pool
    /// thread), so a name is resolved with the blocking call on a short-lived thread, whose end signals the opening's wait
    /// directly. The opening gives up at the connect timeout; a resolution still running then ends on its own thread.</summary>
    private static Task<System.Net.IPAddress[]> ResolveOnOwnThread(string host, CancellationToken cancellationToken) =>
        Task.Factory.StartNew(() => System.Net.Dns.GetHostAddresses(host), cancellationToken, TaskCreationOptions.LongRunning | TaskCreationOptions.DenyChildAttach, TaskScheduler.Default);

    /// <summary>Returns the TLS settings of a server, or null when it is reached in plaintext.</summary>
    internal TlsSettings? TlsFor(ServerEndpoint endpoint) => UsesTls(endpoint) ? _tls : null;

    /// <summary>Describes TLS and authentication for the start-up log: which servers use TLS and how, and the user (never the password).</summary>
    internal (string Tls, string Authentication) DescribeSecurity()
    {
        ServerEndpoint[] tls = [.. Servers.Where(UsesTls)];
        string tlsText = tls.Length == 0 ? "off"
            : tls.Length == Servers.Count ? $"on ({_tls.Describe()})"
            : $"on for {tls.Length} of {Servers.Count} servers ({string.Join(", ", tls.Select(static s => s.Name))}; {_tls.Describe()})";
        return (tlsText, Credentials is null ? "off" : $"as {Credentials}");
    }

    private bool UsesTls(ServerEndpoint endpoint) => endpoint.Tls ?? _tls.Enabled;

    /// <summary>Checks every option and returns the snapshot.</summary>
    /// <exception cref="MemcachedConfigurationException">An option is invalid: every problem <see cref="Validate"/> finds,
    /// a line each, naming the property and the fix (<see cref="MemcachedConfigurationException.PropertyName"/>: the first's).</exception>
    internal static ClientSettings Create(MemcachedClientOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        List<MemcachedConfigurationException> problems = ValidateCore(options, out List<ServerEndpoint> servers, out TlsSettings? tls, out Credentials? credentials);
        if (problems.Count > 0)
        {
            throw problems.Count == 1
                ? problems[0]
                : new MemcachedConfigurationException(problems[0].PropertyName, string.Join(Environment.NewLine, problems.Select(static p => p.Message)), problems[0]);
        }

        return new ClientSettings(options, servers, tls!, credentials, PackageDefaults.Transcoder(options.Transcoder, options.MaxValueSize));
    }

    /// <summary>Checks every option at once (for <c>ValidateOnStart</c>, which reports them all); each problem names the
    /// property, the offending value and what to write instead.</summary>
    internal static List<MemcachedConfigurationException> Validate(MemcachedClientOptions options, out List<ServerEndpoint> servers) =>
        ValidateCore(options, out servers, out _, out _);

    private static List<MemcachedConfigurationException> ValidateCore(MemcachedClientOptions options, out List<ServerEndpoint> servers, out TlsSettings? tls, out Credentials? credentials)
    {
        var problems = new List<MemcachedConfigurationException>();
        servers = [];
        void Problem(string property, string text) => problems.Add(ThrowHelper.ClientOptionProblem(property, text));
        problems.AddRange(options.BindingProblems);

        if (!Enum.IsDefined(options.KeyTransformer))
        {
            Problem(nameof(MemcachedClientOptions.KeyTransformer), $"must be None, Sha1 or Base64, not {(int)options.KeyTransformer}");
        }

        if (options.Servers is null || options.Servers.Count == 0)
        {
            Problem(nameof(MemcachedClientOptions.Servers), "is empty; add at least one server as host:port (for example 127.0.0.1:11211)");
        }
        else
        {
            var seen = new Dictionary<string, int>(StringComparer.OrdinalIgnoreCase);
            for (int i = 0; i < options.Servers.Count; i++)
            {
                string? text = options.Servers[i];
                if (string.IsNullOrWhiteSpace(text))
                {
                    Problem(nameof(MemcachedClientOptions.Servers), $"[{i}] is empty; remove the entry or write host:port (for example 127.0.0.1:11211)");
                }
                else if (!ServerEndpoint.TryParse(text, out ServerEndpoint? endpoint, out string error))
                {
                    Problem(nameof(MemcachedClientOptions.Servers), $"[{i}] {error}");
                }
                else if (seen.TryGetValue(endpoint!.Name, out int first))
                {
                    Problem(nameof(MemcachedClientOptions.Servers), $"[{i}] '{text}' is the same server as Servers[{first}] ('{options.Servers[first]}'); remove one of them");
                }
                else
                {
                    seen.Add(endpoint.Name, i);
                    servers.Add(endpoint);
                }
            }
        }

        CheckRange(Problem, nameof(MemcachedClientOptions.ConnectionsPerServer), options.ConnectionsPerServer, 1, 64);
        CheckRange(Problem, nameof(MemcachedClientOptions.MaxInFlightPerConnection), options.MaxInFlightPerConnection, 1, 1 << 20);
        CheckPositive(Problem, nameof(MemcachedClientOptions.ConnectTimeout), options.ConnectTimeout);
        CheckPositive(Problem, nameof(MemcachedClientOptions.OperationTimeout), options.OperationTimeout);
        CheckPositive(Problem, nameof(MemcachedClientOptions.ServerDownInterval), options.ServerDownInterval);
        CheckRange(Problem, nameof(MemcachedClientOptions.MaxValueSize), options.MaxValueSize, 1, Protocol.MetaReplyParser.MaxDataLength);
        if (options.KeyPrefix is null)
        {
            Problem(nameof(MemcachedClientOptions.KeyPrefix), "is null; use an empty string for no prefix");
        }

        foreach ((string property, string problem) in options.GetOrCreate.Problems())
        {
            Problem($"{nameof(MemcachedClientOptions.GetOrCreate)}.{property}", problem);
        }

        if (!Enum.IsDefined(options.KeyPlacement))
        {
            Problem(nameof(MemcachedClientOptions.KeyPlacement), $"is {(int)options.KeyPlacement}; use Ketama, EnyimMemcachedCore or EnyimMemcachedCoreLegacy");
        }

        if (!Enum.IsDefined(options.OnServerFailure))
        {
            Problem(nameof(MemcachedClientOptions.OnServerFailure), $"is {(int)options.OnServerFailure}; use Miss or Throw");
        }

        if (!Enum.IsDefined(options.OnUnreadableItem))
        {
            Problem(nameof(MemcachedClientOptions.OnUnreadableItem), $"is {(int)options.OnUnreadableItem}; use Miss or Throw");
        }

        tls = TlsSettings.Load(options.Tls, Problem);
        credentials = Credentials.Load(options, Problem);

        return problems;
    }

    private static void CheckRange(Action<string, string> problem, string name, int value, int min, int max)
    {
        if (value < min || value > max)
        {
            problem(name, $"is {value}; it must be between {min} and {max}");
        }
    }

    private static void CheckPositive(Action<string, string> problem, string name, TimeSpan value)
    {
        if (value <= TimeSpan.Zero || value > TimeSpan.FromDays(1))
        {
            problem(name, $"is {value}; it must be more than zero and at most one day (write it as hh:mm:ss in configuration, for example 00:00:02)");
        }
    }
}
