using System.Globalization;
using System.Net;

namespace CacheSerializer.Memcached.Internal;

/// <summary>One configured server: host (name or address), port and ketama weight.</summary>
internal sealed class ServerEndpoint
{
    internal const int DefaultPort = 11211;

    internal ServerEndpoint(string host, int port, int weight)
    {
        Host = host;
        Port = port;
        Weight = weight;
        Name = host.Contains(':', StringComparison.Ordinal) ? $"[{host}]:{port}" : $"{host}:{port}";
    }

    /// <summary>Gets the host as configured: a name (re-resolved on every connect) or an address literal.</summary>
    internal string Host { get; }

    internal int Port { get; }

    internal int Weight { get; }

    /// <summary>Gets <c>host:port</c>, the server's name in messages, metrics and stats.</summary>
    internal string Name { get; }

    /// <summary>Parses <c>host[:port][ weight]</c>; IPv6 addresses in brackets.</summary>
    internal static bool TryParse(string text, out ServerEndpoint? endpoint, out string error)
    {
        endpoint = null;
        string s = text.Trim();
        int weight = 1;
        int space = s.IndexOf(' ', StringComparison.Ordinal);
        if (space >= 0)
        {
            if (!int.TryParse(s.AsSpan(space + 1).Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out weight) || weight < 1)
            {
                error = $"'{text}' has a weight that is not a positive integer";
                return false;
            }

            s = s[..space];
        }

        string host;
        int port = DefaultPort;
        if (s.StartsWith('['))
        {
            int close = s.IndexOf(']', StringComparison.Ordinal);
            if (close < 0)
            {
                error = $"'{text}' opens an IPv6 bracket it does not close";
                return false;
            }

            host = s[1..close];
            string rest = s[(close + 1)..];
            if (rest.Length > 0 && (!rest.StartsWith(':') || !TryParsePort(rest[1..], out port)))
            {
                error = $"'{text}' has an invalid port (expected [address]:port with port 1-65535)";
                return false;
            }
        }
        else
        {
            int colon = s.LastIndexOf(':');
            if (colon >= 0 && s.IndexOf(':', StringComparison.Ordinal) != colon)
            {
                error = $"'{text}' looks like an IPv6 address: write it in brackets, [address]:port";
                return false;
            }

            host = colon >= 0 ? s[..colon] : s;
            if (colon >= 0 && !TryParsePort(s[(colon + 1)..], out port))
            {
                error = $"'{text}' has an invalid port (expected host:port with port 1-65535)";
                return false;
            }
        }

        if (host.Length == 0 || (!IsHostName(host) && !IPAddress.TryParse(host, out _)))
        {
            error = $"'{text}' has no valid host name or address";
            return false;
        }

        endpoint = new ServerEndpoint(host, port, weight);
        error = string.Empty;
        return true;
    }

    public override string ToString() => Name;

    /// <summary>Letters, digits, dots, hyphens and underscores (container names such as "app_memcached_1" have them).</summary>
    private static bool IsHostName(string host)
    {
        foreach (char c in host)
        {
            if (!char.IsAsciiLetterOrDigit(c) && c is not ('.' or '-' or '_'))
            {
                return false;
            }
        }

        return true;
    }

    private static bool TryParsePort(string s, out int port) =>
        int.TryParse(s, NumberStyles.None, CultureInfo.InvariantCulture, out port) && port is >= 1 and <= 65535;
}
