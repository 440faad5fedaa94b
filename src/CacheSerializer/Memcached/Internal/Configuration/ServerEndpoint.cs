using System.Globalization;
using System.Net;

namespace CacheSerializer.Memcached.Internal.Configuration;

/// <summary>One configured server: host (name or address), port, ketama weight, and whether this entry turns TLS on or
/// off whatever <see cref="MemcachedTlsOptions.Enabled"/> says.</summary>
internal sealed class ServerEndpoint
{
    internal const int DefaultPort = 11211;

    /// <summary>Well-formed entries, which the messages about a malformed one give as examples.</summary>
    private const string Example = "for example 127.0.0.1:11211, cache-1:11211 or [::1]:11211";

    internal ServerEndpoint(string host, int port, int weight, bool? tls = null, string? tlsTargetHost = null)
    {
        Host = host;
        Port = port;
        Weight = weight;
        Tls = tls;
        TlsTargetHost = tlsTargetHost;
        Name = host.Contains(':', StringComparison.Ordinal) ? $"[{host}]:{port}" : $"{host}:{port}";
    }

    /// <summary>Gets the host as configured: a name (re-resolved on every connect) or an address literal.</summary>
    internal string Host { get; }

    internal int Port { get; }

    internal int Weight { get; }

    /// <summary>Gets the entry's own TLS choice (<c>tls</c>, <c>tls=name</c> or <c>notls</c>), or null to follow
    /// <see cref="MemcachedTlsOptions.Enabled"/>.</summary>
    internal bool? Tls { get; }

    /// <summary>Gets the name the server's certificate must hold, from <c>tls=name</c>; null when the entry has none.</summary>
    internal string? TlsTargetHost { get; }

    /// <summary>Gets <c>host:port</c>, the server's name in messages, metrics and stats.</summary>
    internal string Name { get; }

    /// <summary>Parses <c>host[:port][ weight][ tls|tls=name|notls]</c>; IPv6 addresses in brackets.</summary>
    /// <param name="text">The entry as configured.</param>
    /// <param name="endpoint">The server, when the entry is valid.</param>
    /// <param name="error">What is wrong with the entry and how to write it, when it is not.</param>
    internal static bool TryParse(string text, out ServerEndpoint? endpoint, out string error)
    {
        endpoint = null;
        string s = text.Trim();
        int scheme = s.IndexOf("://", StringComparison.Ordinal);
        if (scheme >= 0)
        {
            error = $"'{text}' has a URL scheme; write host:port without '{s[..(scheme + 3)]}' ({Example})";
            return false;
        }

        int weight = 1;
        bool? tls = null;
        string? tlsTargetHost = null;
        int space = s.IndexOf(' ', StringComparison.Ordinal);
        if (space >= 0)
        {
            foreach (string token in s[(space + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries))
            {
                if (!TryParseSetting(text, token, ref weight, ref tls, ref tlsTargetHost, out error))
                {
                    return false;
                }
            }

            s = s[..space];
        }

        string host;
        int port;
        bool parsed = s.StartsWith('[')
            ? TryParseBracketed(text, s, out host, out port, out error)
            : TryParseHostAndPort(text, s, out host, out port, out error);
        if (!parsed || !IsValidHost(text, host, out error))
        {
            return false;
        }

        endpoint = new ServerEndpoint(host, port, weight, tls, tlsTargetHost);
        return true;
    }

    /// <summary>Reads <c>[address][:port]</c>, an IPv6 address in brackets.</summary>
    private static bool TryParseBracketed(string text, string s, out string host, out int port, out string error)
    {
        host = string.Empty;
        port = DefaultPort;
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

        error = string.Empty;
        return true;
    }

    /// <summary>Reads <c>host[:port]</c>: a host name or IPv4 address, at most one ':'.</summary>
    private static bool TryParseHostAndPort(string text, string s, out string host, out int port, out string error)
    {
        host = string.Empty;
        port = DefaultPort;
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

        error = string.Empty;
        return true;
    }

    /// <summary>Checks the host read from the entry: present, and a host name or an address literal.</summary>
    private static bool IsValidHost(string text, string host, out string error)
    {
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

        error = string.Empty;
        return true;
    }

    public override string ToString() => Name;

    /// <summary>Reads one word after the address: a ketama weight, or the entry's TLS choice.</summary>
    private static bool TryParseSetting(string text, string token, ref int weight, ref bool? tls, ref string? tlsTargetHost, out string error)
    {
        error = string.Empty;
        if (token is "tls" or "notls" || token.StartsWith("tls=", StringComparison.Ordinal))
        {
            if (tls is not null)
            {
                error = $"'{text}' says tls or notls more than once; keep one of them";
                return false;
            }

            tls = token != "notls";
            if (token.StartsWith("tls=", StringComparison.Ordinal))
            {
                tlsTargetHost = token[4..];
                if (tlsTargetHost.Length == 0 || (!IsHostName(tlsTargetHost) && !IPAddress.TryParse(tlsTargetHost, out _)))
                {
                    error = $"'{text}' has '{token}', whose name is not a host name or address; write tls=<the name the server's certificate holds> (for example 10.0.0.5:11211 tls=cache-1.internal)";
                    return false;
                }
            }

            return true;
        }

        if (char.IsAsciiDigit(token[0]) || token[0] is '-' or '+')
        {
            if (!int.TryParse(token, NumberStyles.None, CultureInfo.InvariantCulture, out weight) || weight < 1)
            {
                error = $"'{text}' has a weight '{token}' that is not a positive integer; write host:port weight (for example 127.0.0.1:11211 2) or leave the weight out";
                return false;
            }

            return true;
        }

        error = $"'{text}' has '{token}' after the address, which is neither a weight (a positive integer) nor tls, tls=<host name> or notls; write host:port, optionally followed by a weight and a TLS choice (for example 127.0.0.1:11211 2 tls)";
        return false;
    }

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
