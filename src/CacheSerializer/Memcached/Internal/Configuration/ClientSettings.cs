using CacheSerializer.Memcached.Internal.GetOrCreate;

namespace CacheSerializer.Memcached.Internal.Configuration;

/// <summary>The validated, immutable copy of <see cref="MemcachedClientOptions"/> a client runs with.</summary>
internal sealed class ClientSettings
{
    private readonly TlsSettings? _tls;

    /// <summary>Maps the options into the settings, one line per option, in the order the options describe themselves:
    /// each line takes the value, checks it and describes it (<see cref="SettingsMap"/>). Adding an option to
    /// <see cref="MemcachedClientOptions"/> means adding its line here; its check, its place in the options'
    /// <c>ToString</c> and in the start-up log follow from it.</summary>
    private ClientSettings(MemcachedClientOptions o, SettingsMap map)
    {
        Servers = map.Take(nameof(o.Servers), ParseServers(o.Servers, map), shown: $"[{string.Join(", ", o.Servers ?? [])}]");
        ConnectionsPerServer = map.Range(nameof(o.ConnectionsPerServer), o.ConnectionsPerServer, 1, 64);
        MaxInFlightPerConnection = map.Range(nameof(o.MaxInFlightPerConnection), o.MaxInFlightPerConnection, 1, 1 << 20);
        ConnectTimeout = map.Duration(nameof(o.ConnectTimeout), o.ConnectTimeout);
        OperationTimeout = map.Duration(nameof(o.OperationTimeout), o.OperationTimeout);
        ServerDownInterval = map.Duration(nameof(o.ServerDownInterval), o.ServerDownInterval);
        KeyPrefix = map.Take(nameof(o.KeyPrefix), o.KeyPrefix, static v => v is null ? "is null; use an empty string for no prefix" : null, shown: $"'{o.KeyPrefix}'");
        MaxValueSize = map.Range(nameof(o.MaxValueSize), o.MaxValueSize, 1, Protocol.MetaReplyParser.MaxDataLength);
        OnServerFailure = map.Choice(nameof(o.OnServerFailure), o.OnServerFailure, "Miss or Throw");
        OnUnreadableItem = map.Choice(nameof(o.OnUnreadableItem), o.OnUnreadableItem, "Miss or Throw");
        DeleteUnreadableItems = map.Take(nameof(o.DeleteUnreadableItems), o.DeleteUnreadableItems);
        KeyPlacement = map.Choice(nameof(o.KeyPlacement), o.KeyPlacement, "Ketama, EnyimMemcachedCore or EnyimMemcachedCoreLegacy");
        KeyTransformer = map.Take(nameof(o.KeyTransformer), o.KeyTransformer, static v => Enum.IsDefined(v) ? null : $"must be None, Sha1 or Base64, not {(int)v}");
        AutoEject = map.Take(nameof(o.AutoEject), o.AutoEject);
        FlushOnReturn = map.Take(nameof(o.FlushOnReturn), o.FlushOnReturn);
        map.Take(nameof(o.GetOrCreate), o.GetOrCreate, shown: o.GetOrCreate?.ToString());
        foreach ((string property, string problem) in map.Validates ? o.GetOrCreate?.Problems() ?? [] : [])
        {
            map.Problem($"{nameof(o.GetOrCreate)}.{property}", problem);
        }

        _tls = map.Take(nameof(o.Tls), map.Validates ? TlsSettings.Load(o.Tls, map.Problem) : null, shown: o.Tls?.ToString());
        Credentials = map.Take(nameof(o.UserName), map.Validates ? Credentials.Load(o, map.Problem) : null, shown: o.UserName ?? "(none)");
        map.Take(nameof(o.Password), o.Password, shown: o.Password is null ? "(none)" : MemcachedClientOptions.Hidden);
        map.Take(nameof(o.Transcoder), o.Transcoder, shown: o.Transcoder?.GetType().Name ?? "(default)");
        MaxReplyData = o.MaxValueSize + Protocol.MetaReplyParser.ReplyMargin;
        HostResolver = o.HostResolver ?? ResolveOnOwnThread;
        BindingWarnings = [.. o.BindingWarnings];
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
    internal bool PooledReads { get; private set; }

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
    internal EntryPolicy GetOrCreate { get; private set; } = null!;

    internal ITranscoder Transcoder { get; private set; } = null!;

    /// <summary>Gets a value indicating whether this is the migration phase from EnyimMemcachedCore: objects are not yet
    /// written as protobuf (<see cref="ProtobufTranscoderOptions.ObjectFormat"/> of the transcoder a section built, as an
    /// <c>enyimMemcached</c> section starts, even if wrapped since; else of the <see cref="ProtobufTranscoder"/> set), so
    /// EnyimMemcachedCore's applications still read the cache: nothing but values may sit under their keys (docs/client.md,
    /// "In the migration phase"), and what else writes their formats (<c>IDistributedCache</c>) asks this one question.</summary>
    internal bool MigrationPhase { get; private set; }

    /// <summary>Gets the user and password sent first on each connection, or null for no authentication.</summary>
    internal Credentials? Credentials { get; }

    /// <summary>Gets the TLS settings when any server uses TLS (for the start-up log's warnings), else null.</summary>
    internal TlsSettings? Tls => Servers.Any(UsesTls) ? _tls : null;

    /// <summary>Gets the transcoder and its settings in words, for the start-up log.</summary>
    internal string TranscoderDescription { get; private set; } = string.Empty;

    /// <summary>Gets every setting in words, as the mapping described them (the start-up log's; secrets hidden).</summary>
    internal string Description { get; private set; } = string.Empty;

    /// <summary>Gets the warnings of binding the configuration section, for the start-up log.</summary>
    internal IReadOnlyList<string> BindingWarnings { get; }

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
            : tls.Length == Servers.Count ? $"on ({_tls!.Describe()})"
            : $"on for {tls.Length} of {Servers.Count} servers ({string.Join(", ", tls.Select(static s => s.Name))}; {_tls!.Describe()})";
        return (tlsText, Credentials is null ? "off" : $"as {Credentials}");
    }

    private bool UsesTls(ServerEndpoint endpoint) => endpoint.Tls ?? _tls!.Enabled;

    /// <summary>Checks every option and returns the snapshot.</summary>
    /// <exception cref="MemcachedConfigurationException">An option is invalid: every problem <see cref="Validate"/> finds,
    /// a line each, naming the property and the fix (<see cref="MemcachedConfigurationException.PropertyName"/>: the first's).</exception>
    internal static ClientSettings Create(MemcachedClientOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var map = new SettingsMap(validates: true);
        var settings = new ClientSettings(options, map);
        List<MemcachedConfigurationException> problems = [.. options.BindingProblems, .. map.Problems];
        if (problems.Count > 0)
        {
            throw problems.Count == 1
                ? problems[0]
                : new MemcachedConfigurationException(problems[0].PropertyName, string.Join(Environment.NewLine, problems.Select(static p => p.Message)), problems[0]);
        }

        // What only valid options can give: the resolved defaults of get-or-create, and the transcoder.
        settings.GetOrCreate = EntryPolicy.FromDefaults(options.GetOrCreate);
        settings.Transcoder = PackageDefaults.Transcoder(options.Transcoder, options.MaxValueSize);
        settings.PooledReads = settings.Transcoder is ProtobufTranscoder;
        TranscoderObjectFormat objectFormat = options.BoundObjectFormat ?? (settings.Transcoder as ProtobufTranscoder)?.ObjectFormat ?? TranscoderObjectFormat.Protobuf;
        settings.MigrationPhase = objectFormat != TranscoderObjectFormat.Protobuf;
        settings.Description = map.Describe();
        settings.TranscoderDescription = options.TranscoderDescription
            ?? (options.Transcoder is null ? $"ProtobufTranscoder (defaults, MaxValueSize {options.MaxValueSize} bytes)" : settings.Transcoder.GetType().FullName!);
        return settings;
    }

    /// <summary>Checks every option at once (for <c>ValidateOnStart</c>, which reports them all); each problem names the
    /// property, the offending value and what to write instead.</summary>
    internal static List<MemcachedConfigurationException> Validate(MemcachedClientOptions options)
    {
        var map = new SettingsMap(validates: true);
        _ = new ClientSettings(options, map);
        return [.. options.BindingProblems, .. map.Problems];
    }

    /// <summary>The options in words, as the mapping describes them (nothing checked or loaded): the options' <c>ToString</c>.</summary>
    internal static string Describe(MemcachedClientOptions options)
    {
        var map = new SettingsMap(validates: false);
        _ = new ClientSettings(options, map);
        return map.Describe();
    }

    /// <summary>Parses the servers; each entry that is empty, malformed or a repeat is a problem naming its index.</summary>
    private static List<ServerEndpoint> ParseServers(IList<string>? entries, SettingsMap map)
    {
        var servers = new List<ServerEndpoint>();
        if (entries is null || entries.Count == 0)
        {
            map.Problem(nameof(MemcachedClientOptions.Servers), "is empty; add at least one server as host:port (for example 127.0.0.1:11211)");
            return servers;
        }

        var seen = new Dictionary<string, int>(StringComparer.OrdinalIgnoreCase);
        for (int i = 0; i < entries.Count; i++)
        {
            string? text = entries[i];
            if (string.IsNullOrWhiteSpace(text))
            {
                map.Problem(nameof(MemcachedClientOptions.Servers), $"[{i}] is empty; remove the entry or write host:port (for example 127.0.0.1:11211)");
            }
            else if (!ServerEndpoint.TryParse(text, out ServerEndpoint? endpoint, out string error))
            {
                map.Problem(nameof(MemcachedClientOptions.Servers), $"[{i}] {error}");
            }
            else if (seen.TryGetValue(endpoint!.Name, out int first))
            {
                map.Problem(nameof(MemcachedClientOptions.Servers), $"[{i}] '{text}' is the same server as Servers[{first}] ('{entries[first]}'); remove one of them");
            }
            else
            {
                seen.Add(endpoint.Name, i);
                servers.Add(endpoint);
            }
        }

        return servers;
    }
}
