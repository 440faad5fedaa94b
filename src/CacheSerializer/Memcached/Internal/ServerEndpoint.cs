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
    /// <param name="text">The entry as configured.</param>
    /// <param name="endpoint">The server, when the entry is valid.</param>
    /// <param name="error">What is wrong with the entry and how to write it, when it is not.</param>
    internal static bool TryParse(string text, out ServerEndpoint? endpoint, out string error)
    {
        endpoint = null;
        string s = text.Trim();
        const string Example = "for example 127.0.0.1:11211, cache-1:11211 or [::1]:11211";
        int scheme = s.IndexOf("://", StringComparison.Ordinal);
        if (scheme >= 0)
        {
            error = $"'{text}' has a URL scheme; write host:port without '{s[..(scheme + 3)]}' ({Example})";
            return false;
        }

        int weight = 1;
        int space = s.IndexOf(' ', StringComparison.Ordinal);
        if (space >= 0)
        {
            if (!int.TryParse(s.AsSpan(space + 1).Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out weight) || weight < 1)
            {
                error = $"'{text}' has a weight '{s[(space + 1)..].Trim()}' that is not a positive integer; write host:port weight (for example 127.0.0.1:11211 2) or leave the weight out";
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
                error = $"'{text}' opens an IPv6 bracket it does not close; write [address]:port (for example [::1]:11211)";
                return false;
            }

            host = s[1..close];
            string rest = s[(close + 1)..];
            if (rest.Length > 0 && (!rest.StartsWith(':') || !TryParsePort(rest[1..], out port)))
            {
                error = $"'{text}' has an invalid port '{rest.TrimStart(':')}'; use a number from 1 to 65535 after the bracket (for example [::1]:11211)";
                return false;
            }
        }
        else
        {
            int colon = s.LastIndexOf(':');
            if (colon >= 0 && s.IndexOf(':', StringComparison.Ordinal) != colon)
            {
                error = IPAddress.TryParse(s, out IPAddress? v6) || IPAddress.TryParse(s[..colon], out v6)
                    ? $"'{text}' looks like an IPv6 address; write it in brackets, [address]:port (for example [::1]:11211)"
                    : $"'{text}' has more than one ':'; write host:port ({Example})";
                return false;
            }

            host = colon >= 0 ? s[..colon] : s;
            if (colon >= 0 && !TryParsePort(s[(colon + 1)..], out port))
            {
                error = $"'{text}' has an invalid port '{s[(colon + 1)..]}'; use a number from 1 to 65535 (memcached listens on 11211 by default)";
                return false;
            }
        }

        if (host.Length == 0)
        {
            error = $"'{text}' has no host; write host:port ({Example})";
            return false;
        }

        if (!IsHostName(host) && !IPAddress.TryParse(host, out _))
        {
            error = $"'{text}' has no valid host name or address ('{host}': a host name has only letters, digits, '.', '-' and '_'); write host:port ({Example})";
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
