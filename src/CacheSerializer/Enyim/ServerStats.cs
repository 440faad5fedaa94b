using System.Globalization;
using System.Net;

namespace CacheSerializer.Enyim;

/// <summary>The statistics of every server that answered, as EnyimMemcachedCore's <c>ServerStats</c>.</summary>
/// <remarks>Servers are named by <see cref="IPEndPoint"/> (or <see cref="DnsEndPoint"/> for a host name) and looked up by
/// host and port: a <see cref="DnsEndPoint"/> is not resolved to find an <see cref="IPEndPoint"/>'s statistics, as
/// EnyimMemcachedCore's <c>GetIPEndPoint</c> does; ask with the form the servers are configured in.</remarks>
public sealed class ServerStats
{
    /// <summary>Asks <see cref="GetValue"/> for the sum over every server.</summary>
    public static readonly IPEndPoint All = new(IPAddress.Any, 0);

    // The statistic of each StatItem, and whether it may be summed over servers (EnyimMemcachedCore's StatKeys and
    // Optable, ServerStats.cs at e383c4c).
    private static readonly (string Key, bool Summable)[] Items =
    [
        ("uptime", false), ("time", false), ("version", false), ("curr_items", true), ("total_items", true),
        ("curr_connections", true), ("total_connections", true), ("connection_structures", true), ("cmd_get", true),
        ("cmd_set", true), ("get_hits", true), ("get_misses", true), ("bytes", true), ("bytes_read", true),
        ("bytes_written", true), ("limit_maxbytes", true),
    ];

    private readonly IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>> _byServer;

    internal ServerStats(IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>> byServer)
    {
        _byServer = byServer;
    }

    /// <summary>Gets a statistic of a server as a number, or its sum over every server for <see cref="All"/>.</summary>
    /// <param name="server">The server, or <see cref="All"/>.</param>
    /// <param name="item">The statistic.</param>
    /// <returns>The value.</returns>
    /// <exception cref="ArgumentException">The server has no such statistic, it is not a number, or it cannot be summed.</exception>
    public long GetValue(EndPoint server, StatItem item)
    {
        ArgumentNullException.ThrowIfNull(server);
        if (server is not IPEndPoint { Port: 0 } any || !any.Address.Equals(IPAddress.Any))
        {
            string? raw = GetRaw(server, item);
            if (string.IsNullOrEmpty(raw))
            {
                throw new ArgumentException("Item was not found: " + item, nameof(item));
            }

            return long.TryParse(raw, NumberStyles.Integer, CultureInfo.InvariantCulture, out long value)
                ? value
                : throw new ArgumentException("Invalid value string was returned: " + raw, nameof(item));
        }

        if (!Items[(int)item].Summable)
        {
            throw new ArgumentException("The " + item + " values cannot be summarized", nameof(item));
        }

        long sum = 0;
        foreach (string name in _byServer.Keys)
        {
            sum += GetValue(EndPointOf(name), item);
        }

        return sum;
    }

    /// <summary>Gets a server's memcached version.</summary>
    /// <param name="server">The server.</param>
    /// <returns>Its version.</returns>
    /// <exception cref="ArgumentException">The server did not report one.</exception>
    public Version GetVersion(EndPoint server)
    {
        string? version = GetRaw(server, StatItem.Version);
        return string.IsNullOrEmpty(version) ? throw new ArgumentException("No version found for the server " + server, nameof(server)) : new Version(version);
    }

    /// <summary>Gets how long a server has been running.</summary>
    /// <param name="server">The server.</param>
    /// <returns>Its uptime.</returns>
    /// <exception cref="ArgumentException">The server did not report one, or not as a number.</exception>
    public TimeSpan GetUptime(EndPoint server)
    {
        string? uptime = GetRaw(server, StatItem.Uptime);
        if (string.IsNullOrEmpty(uptime))
        {
            throw new ArgumentException("No uptime found for the server " + server, nameof(server));
        }

        return long.TryParse(uptime, NumberStyles.Integer, CultureInfo.InvariantCulture, out long seconds)
            ? TimeSpan.FromSeconds(seconds)
            : throw new ArgumentException("Invalid uptime string was returned: " + uptime, nameof(server));
    }

    /// <summary>Gets a statistic of a server as the server wrote it.</summary>
    /// <param name="server">The server.</param>
    /// <param name="key">The statistic's name (<c>curr_items</c>, ...).</param>
    /// <returns>The value, or null when the server or the statistic is unknown.</returns>
    public string? GetRaw(EndPoint server, string key)
    {
        ArgumentNullException.ThrowIfNull(server);
        return _byServer.TryGetValue(NameOf(server), out IReadOnlyDictionary<string, string>? stats) && stats.TryGetValue(key, out string? value) ? value : null;
    }

    /// <summary>Gets a statistic of a server as the server wrote it.</summary>
    /// <param name="server">The server.</param>
    /// <param name="item">The statistic.</param>
    /// <returns>The value, or null when the server or the statistic is unknown.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="item"/> is not a defined <see cref="StatItem"/>.</exception>
    public string? GetRaw(EndPoint server, StatItem item) =>
        (int)item >= 0 && (int)item < Items.Length ? GetRaw(server, Items[(int)item].Key) : throw new ArgumentOutOfRangeException(nameof(item));

    /// <summary>Gets a statistic of every server that answered, as the servers wrote it.</summary>
    /// <param name="key">The statistic's name.</param>
    /// <returns>Each server with its value (null where it has none).</returns>
    public IEnumerable<KeyValuePair<EndPoint, string?>> GetRaw(string key) =>
        [.. _byServer.Select(server => new KeyValuePair<EndPoint, string?>(EndPointOf(server.Key), server.Value.TryGetValue(key, out string? value) ? value : null))];

    /// <summary>The endpoint of a server named <c>host:port</c> (<c>[v6]:port</c> for an IPv6 address).</summary>
    internal static EndPoint EndPointOf(string name)
    {
        int colon = name.LastIndexOf(':');
        string host = name[..colon].Trim('[', ']');
        int port = int.Parse(name.AsSpan(colon + 1), CultureInfo.InvariantCulture);
        return IPAddress.TryParse(host, out IPAddress? address) ? new IPEndPoint(address, port) : new DnsEndPoint(host, port);
    }

    private static string NameOf(EndPoint server) => server switch
    {
        IPEndPoint ip => ip.ToString(),
        DnsEndPoint dns => $"{dns.Host}:{dns.Port.ToString(CultureInfo.InvariantCulture)}",
        _ => server.ToString() ?? string.Empty,
    };
}
