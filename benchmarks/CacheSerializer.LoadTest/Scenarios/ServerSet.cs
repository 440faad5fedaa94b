using System.Globalization;
using System.Net;
using CacheSerializer.LocalServers;

namespace CacheSerializer.LoadTest.Scenarios;

/// <summary>The memcached servers of a run (the main pass or a scenario): started here on free 127.0.0.1 ports (serving
/// TLS with a throwaway certificate under <c>--tls</c>) and stopped at the end, or given and left running.</summary>
internal sealed class ServerSet : IDisposable
{
    private readonly List<MemcachedServer> _started = [];
    private ThrowawayCertificates? _certificates;
    private int _disposed;

    private MemcachedServer Started(int index) => StartedHere
        ? _started[index]
        : throw new InvalidOperationException("the fault mode only kills and restarts servers the run started itself");

    private ServerSet(IReadOnlyList<string> endpoints, bool startedHere)
    {
        Endpoints = endpoints;
        StartedHere = startedHere;
    }

    /// <summary>Gets the servers as <c>host:port</c>.</summary>
    public IReadOnlyList<string> Endpoints { get; private set; }

    /// <summary>Gets a value indicating whether the servers were started by this run.</summary>
    public bool StartedHere { get; }

    /// <summary>Gets the PEM file of the throwaway authority that issued the servers' certificates, for the client to
    /// trust, when the servers serve TLS.</summary>
    /// <value>Null: plaintext.</value>
    public string? CaPath => _certificates?.CaPath;

    /// <summary>Gets how the servers were started, for the report: the memcached arguments, or "given".</summary>
    public string Description { get; private set; } = "given";

    /// <summary>Starts <see cref="LoadTestSettings.Nodes"/> servers, or checks the given ones.</summary>
    /// <param name="settings">The run's settings.</param>
    /// <returns>The servers; dispose to stop the started ones.</returns>
    /// <exception cref="ArgumentException">A given server is not a loopback <c>host:port</c>.</exception>
    /// <exception cref="ServerUnavailableException">memcached is not installed (the message says how to install it) or did not start.</exception>
    public static ServerSet Open(LoadTestSettings settings)
    {
        if (settings.Servers.Count > 0)
        {
            foreach (string server in settings.Servers)
            {
                CheckLoopback(server);
            }

            return new ServerSet(settings.Servers, startedHere: false);
        }

        string arguments = string.Create(CultureInfo.InvariantCulture, $"-m {settings.MemoryMegabytes} -I {settings.MaxItemBytes / (1024 * 1024)}m");
        ServerSet set = Start(settings.Nodes, arguments, settings.Tls);
        set.Description = $"{set.Description} -t 2{(settings.Tls ? " -Z (TLS, throwaway ECDSA P-256 certificate validated by the client)" : string.Empty)}";
        return set;
    }

    /// <summary>Starts servers on free 127.0.0.1 ports.</summary>
    /// <param name="nodes">How many.</param>
    /// <param name="arguments">memcached's arguments beyond the launcher's own.</param>
    /// <param name="tls">Whether they serve TLS, with a throwaway certificate (<see cref="CaPath"/>).</param>
    /// <returns>The servers, described as "started here: memcached <paramref name="arguments"/>"; dispose to stop them.</returns>
    /// <exception cref="ServerUnavailableException">memcached is not installed (the message says how to install it) or did not start.</exception>
    public static ServerSet Start(int nodes, string arguments, bool tls = false)
    {
        var set = new ServerSet([], startedHere: true);
        try
        {
            MemcachedServerSecurity? security = null;
            if (tls)
            {
                set._certificates = ThrowawayCertificates.Create();
                security = new MemcachedServerSecurity { Certificate = set._certificates.Server };
            }

            for (int i = 0; i < nodes; i++)
            {
                set._started.Add(MemcachedServer.Start(arguments, security));
            }

            set.Description = $"started here: memcached {arguments}";
            set.Endpoints = set._started.Select(s => s.Endpoint).ToArray();
            return set;
        }
        catch
        {
            set.Dispose();
            throw;
        }
    }

    /// <summary>Checks that a server is given as <c>host:port</c> with a loopback host: the load test never leaves this machine.</summary>
    /// <param name="server">The server.</param>
    /// <exception cref="ArgumentException">It is not.</exception>
    public static void CheckLoopback(string server)
    {
        ArgumentNullException.ThrowIfNull(server);
        int colon = server.LastIndexOf(':');
        string host = colon > 0 ? server[..colon].Trim('[', ']') : string.Empty;
        bool portOk = colon > 0 && int.TryParse(server[(colon + 1)..], NumberStyles.None, CultureInfo.InvariantCulture, out int port) && port is > 0 and <= 65535;
        bool loopback = host.Equals("localhost", StringComparison.OrdinalIgnoreCase) || (IPAddress.TryParse(host, out IPAddress? address) && IPAddress.IsLoopback(address));
        if (!portOk || !loopback)
        {
            throw new ArgumentException($"--servers: '{server}' must be host:port with a loopback host (127.0.0.1, [::1] or localhost); the load test only talks to this machine.");
        }
    }

    /// <summary>Kills (SIGKILL) a server started here, as a crash would: the fault mode's outage.</summary>
    /// <param name="index">The server's index in <see cref="Endpoints"/>.</param>
    /// <exception cref="InvalidOperationException">The servers were given, not started here.</exception>
    public void Kill(int index) => Started(index).Kill();

    /// <summary>Freezes a server started here (SIGSTOP), as a hung server: the hybrid scenario's outage.</summary>
    /// <param name="index">The server's index in <see cref="Endpoints"/>.</param>
    /// <exception cref="InvalidOperationException">The servers were given, not started here.</exception>
    public void Pause(int index) => Started(index).Pause();

    /// <summary>Lets a frozen server run again (SIGCONT).</summary>
    /// <param name="index">The server's index in <see cref="Endpoints"/>.</param>
    /// <exception cref="InvalidOperationException">The servers were given, not started here.</exception>
    public void Resume(int index) => Started(index).Resume();

    /// <summary>Starts a killed server again on its port, empty; does nothing when it is running.</summary>
    /// <param name="index">The server's index in <see cref="Endpoints"/>.</param>
    /// <exception cref="InvalidOperationException">The servers were given, not started here, or memcached did not start.</exception>
    public void Restart(int index)
    {
        MemcachedServer server = Started(index);
        if (!server.IsRunning)
        {
            server.Restart();
        }
    }

    /// <summary>Stops the servers started here (at once); given servers are left running.</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        foreach (MemcachedServer server in _started)
        {
            server.Dispose();
        }

        _certificates?.Dispose();
    }
}
