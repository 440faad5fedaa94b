namespace CacheSerializer.Memcached.Internal;

/// <summary>The validated, immutable copy of <see cref="MemcachedClientOptions"/> a client runs with.</summary>
internal sealed class ClientSettings
{
    private ClientSettings(MemcachedClientOptions options, IReadOnlyList<ServerEndpoint> servers, ITranscoder transcoder)
    {
        Servers = servers;
        ConnectionsPerServer = options.ConnectionsPerServer;
        MaxInFlightPerConnection = options.MaxInFlightPerConnection;
        ConnectTimeout = options.ConnectTimeout;
        OperationTimeout = options.OperationTimeout;
        ServerDownInterval = options.ServerDownInterval;
        KeyPrefix = options.KeyPrefix;
        MaxValueSize = options.MaxValueSize;
        MissOnServerFailure = options.MissOnServerFailure;
        Transcoder = transcoder;
        HostResolver = options.HostResolver ?? System.Net.Dns.GetHostAddressesAsync;
    }

    internal IReadOnlyList<ServerEndpoint> Servers { get; }

    internal int ConnectionsPerServer { get; }

    internal int MaxInFlightPerConnection { get; }

    internal TimeSpan ConnectTimeout { get; }

    internal TimeSpan OperationTimeout { get; }

    internal TimeSpan ServerDownInterval { get; }

    internal string KeyPrefix { get; }

    internal int MaxValueSize { get; }

    internal bool MissOnServerFailure { get; }

    internal ITranscoder Transcoder { get; }

    /// <summary>Gets the resolver called on every connect (the system's DNS unless a test wraps it).</summary>
    internal Func<string, CancellationToken, Task<System.Net.IPAddress[]>> HostResolver { get; }

    /// <summary>Checks every option at once and returns the snapshot; the exception names the offending property.</summary>
    internal static ClientSettings Create(MemcachedClientOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (options.Servers is null || options.Servers.Count == 0)
        {
            ThrowHelper.ThrowInvalidOption(nameof(MemcachedClientOptions.Servers), "at least one server (\"host:port\") is required");
        }

        var servers = new List<ServerEndpoint>(options.Servers.Count);
        var seen = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (string? text in options.Servers)
        {
            if (string.IsNullOrWhiteSpace(text))
            {
                ThrowHelper.ThrowInvalidOption(nameof(MemcachedClientOptions.Servers), "an entry is empty");
            }

            if (!ServerEndpoint.TryParse(text, out ServerEndpoint? endpoint, out string error))
            {
                ThrowHelper.ThrowInvalidOption(nameof(MemcachedClientOptions.Servers), error);
            }

            if (!seen.Add(endpoint!.Name))
            {
                ThrowHelper.ThrowInvalidOption(nameof(MemcachedClientOptions.Servers), $"'{endpoint.Name}' is listed twice");
            }

            servers.Add(endpoint);
        }

        CheckRange(nameof(MemcachedClientOptions.ConnectionsPerServer), options.ConnectionsPerServer, 1, 64);
        CheckRange(nameof(MemcachedClientOptions.MaxInFlightPerConnection), options.MaxInFlightPerConnection, 1, 1 << 20);
        CheckPositive(nameof(MemcachedClientOptions.ConnectTimeout), options.ConnectTimeout);
        CheckPositive(nameof(MemcachedClientOptions.OperationTimeout), options.OperationTimeout);
        CheckPositive(nameof(MemcachedClientOptions.ServerDownInterval), options.ServerDownInterval);
        CheckRange(nameof(MemcachedClientOptions.MaxValueSize), options.MaxValueSize, 1, 1024 * 1024 * 1024);
        if (options.KeyPrefix is null)
        {
            ThrowHelper.ThrowInvalidOption(nameof(MemcachedClientOptions.KeyPrefix), "must not be null (use an empty string for no prefix)");
        }

        return new ClientSettings(options, servers, PackageDefaults.Transcoder(options.Transcoder, options.MaxValueSize));
    }

    private static void CheckRange(string name, int value, int min, int max)
    {
        if (value < min || value > max)
        {
            ThrowHelper.ThrowInvalidOption(name, $"is {value}; it must be between {min} and {max}");
        }
    }

    private static void CheckPositive(string name, TimeSpan value)
    {
        if (value <= TimeSpan.Zero || value > TimeSpan.FromDays(1))
        {
            ThrowHelper.ThrowInvalidOption(name, $"is {value}; it must be more than zero and at most one day");
        }
    }
}
