using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Reflection;
using System.Security.Authentication;
using Microsoft.Extensions.Configuration;

namespace CacheSerializer.Memcached.Internal.Configuration;

/// <summary>
/// Binds an EnyimMemcachedCore configuration section as it is (<c>"enyimMemcached": { "Servers": [ { "Address": ...,
/// "Port": ... } ], ... }</c>): each of its settings is mapped to ours, accepted as having nothing to map, or refused
/// at start-up with what to do (docs/migrating-from-enyim.md, "Settings"). The section's keys are those of
/// EnyimMemcachedCore's <c>MemcachedClientOptions</c> (cnblogs/EnyimMemcachedCore at e383c4c7,
/// src/Enyim.Caching/Configuration/MemcachedClientOptions.cs); the package's own settings may sit beside them and win.
/// </summary>
internal static class EnyimSection
{
    /// <summary>The settings only EnyimMemcachedCore's section has: one of them (or a server given as an object) marks its shape.</summary>
    private static readonly HashSet<string> EnyimOnly = new(StringComparer.OrdinalIgnoreCase)
    {
        "Protocol", "SocketPool", "UseLegacyNodeLocator", "Authentication", "Transcoder", "UseSslStream", "UseIPv6",
        "SuppressException", "SslClientAuth", "NodeLocatorFactory",
    };

    /// <summary>Whether <paramref name="section"/> is in EnyimMemcachedCore's shape rather than the package's own.</summary>
    public static bool IsEnyimShape(IConfiguration section) =>
        section.GetChildren().Any(child => EnyimOnly.Contains(child.Key))
        || section.GetSection("Servers").GetChildren().Any(server => server.Value is null && server.GetChildren().Any());

    /// <summary>
    /// Sets <paramref name="options"/> from an EnyimMemcachedCore section: EnyimMemcachedCore's key placement (its legacy
    /// one under <c>UseLegacyNodeLocator</c>), each of its settings that maps to ours, then the package's own settings
    /// beside them, which win; a refused or unknown setting becomes a binding problem, reported at start-up. The
    /// transcoder is not set here: <c>AddMemcached</c> builds it from the <c>ProtobufTranscoder</c> subsection, in the
    /// migration phase (objects written as DefaultTranscoder writes them) unless its <c>ObjectFormat</c> says otherwise.
    /// </summary>
    public static void Apply(IConfiguration section, MemcachedClientOptions options)
    {
        List<MemcachedConfigurationException> problems = options.BindingProblems;
        void Refuse(IConfigurationSection setting, string text) =>
            problems.Add(new MemcachedConfigurationException(setting.Key, $"{PathOf(setting)}: {text}"));

        options.KeyPlacement = KeyPlacement.EnyimMemcachedCore;
        var own = new List<IConfigurationSection>();
        foreach (IConfigurationSection setting in section.GetChildren())
        {
            if (!TryBindEnyimSetting(setting, options, Refuse))
            {
                own.Add(setting);
            }
        }

        foreach (IConfigurationSection setting in own)
        {
            BindOwn(setting, options, Refuse);
        }
    }

    /// <summary>Maps one of EnyimMemcachedCore's settings, accepts it as having nothing to map, or refuses it; false when it is not one.</summary>
    private static bool TryBindEnyimSetting(IConfigurationSection setting, MemcachedClientOptions options, Action<IConfigurationSection, string> refuse)
    {
        switch (setting.Key.ToUpperInvariant())
        {
            case "SERVERS":
                BindServers(setting, options, refuse);
                break;
            case "USELEGACYNODELOCATOR" or "SUPPRESSEXCEPTION" or "USESSLSTREAM" or "USEIPV6":
                BindFlag(setting, options, refuse);
                break;
            case "PROTOCOL":
                // Binary or Text: keys, flags, values and expirations are the same in both and in the meta protocol
                // this package speaks, so both read each other's items.
                if (!(setting.Value is { } protocol && (protocol.Equals("Binary", StringComparison.OrdinalIgnoreCase) || protocol.Equals("Text", StringComparison.OrdinalIgnoreCase))))
                {
                    refuse(setting, $"'{setting.Value}' is not an EnyimMemcachedCore protocol (Binary or Text)");
                }

                break;
            case "SOCKETPOOL":
                BindSocketPool(setting, options, refuse);
                break;
            case "AUTHENTICATION":
                if (setting.GetChildren().Any(child => child.Value is { Length: > 0 } || child.GetChildren().Any()))
                {
                    refuse(setting, "EnyimMemcachedCore authenticates with SASL over memcached's binary protocol, and memcached offers SASL to no "
                        + "other protocol; this package speaks the meta (text) protocol, which memcached authenticates with a password file "
                        + "(memcached -Y <authfile>, one 'user:password' per line). Start the servers with -Y and set UserName and Password "
                        + "(a server started with -S, SASL, refuses every text client), or remove Authentication on a private network; "
                        + "docs/migrating-from-enyim.md, \"Authentication\"");
                }

                break;
            case "KEYTRANSFORMER":
                EnyimKeyTransformer.Bind(setting, options, refuse);
                break;
            case "TRANSCODER":
                EnyimTranscoderSetting.Bind(setting, options, refuse);
                break;
            case "SSLCLIENTAUTH":
                BindSslClientAuth(setting, options, refuse);
                break;
            case "NODELOCATORFACTORY":
                refuse(setting, "a custom node locator cannot be loaded; this package places keys as EnyimMemcachedCore's DefaultNodeLocator "
                    + "(or LegacyNodeLocator with UseLegacyNodeLocator) or by ketama (KeyPlacement)");
                break;
            default:
                return false;
        }

        return true;
    }

    /// <summary>Binds one of EnyimMemcachedCore's true/false settings.</summary>
    private static void BindFlag(IConfigurationSection setting, MemcachedClientOptions options, Action<IConfigurationSection, string> refuse)
    {
        bool? value = Flag(setting, refuse);
        switch (setting.Key.ToUpperInvariant())
        {
            case "USELEGACYNODELOCATOR" when value == true:
                options.KeyPlacement = KeyPlacement.EnyimMemcachedCoreLegacy;
                break;
            case "SUPPRESSEXCEPTION" when value is bool suppress:
                options.OnServerFailure = suppress ? ServerFailurePolicy.Miss : ServerFailurePolicy.Throw;
                break;
            case "USESSLSTREAM" when value is bool tls:
                options.Tls.Enabled = tls;
                break;
            default:
                // Nothing to set: a refused value, UseLegacyNodeLocator false, or UseIPv6 (every address a host name resolves to is tried in turn, IPv6 and IPv4).
                break;
        }
    }

    private static void BindServers(IConfigurationSection servers, MemcachedClientOptions options, Action<IConfigurationSection, string> refuse)
    {
        foreach (IConfigurationSection server in servers.GetChildren())
        {
            if (server.Value is { } text)
            {
                // The package's own form, host:port, beside EnyimMemcachedCore's objects.
                options.Servers.Add(text);
                continue;
            }

            string? address = server["Address"];
            string? portText = server["Port"];
            if (string.IsNullOrWhiteSpace(address))
            {
                refuse(server, "has no Address; give the server's host name or IP address");
                continue;
            }

            if (!int.TryParse(portText, NumberStyles.None, CultureInfo.InvariantCulture, out int port) || port is < 1 or > 65535)
            {
                refuse(server, $"Port '{portText}' is not a port (1-65535)");
                continue;
            }

            foreach (IConfigurationSection extra in server.GetChildren().Where(child => child.Key is not ("Address" or "Port")))
            {
                refuse(extra, "is not a setting of an EnyimMemcachedCore server (Address, Port)");
            }

            options.Servers.Add(IPAddress.TryParse(address, out IPAddress? ip) && ip.AddressFamily == AddressFamily.InterNetworkV6
                ? $"[{ip}]:{port.ToString(CultureInfo.InvariantCulture)}"
                : $"{address}:{port.ToString(CultureInfo.InvariantCulture)}");
        }
    }

    private static void BindSocketPool(IConfigurationSection pool, MemcachedClientOptions options, Action<IConfigurationSection, string> refuse)
    {
        foreach (IConfigurationSection setting in pool.GetChildren())
        {
            switch (setting.Key.ToUpperInvariant())
            {
                case "CONNECTIONTIMEOUT":
                    if (Duration(setting, refuse) is { } connect)
                    {
                        options.ConnectTimeout = connect;
                    }

                    break;
                case "RECEIVETIMEOUT":
                    if (Duration(setting, refuse) is { } receive)
                    {
                        options.OperationTimeout = receive;
                    }

                    break;
                case "DEADTIMEOUT":
                    if (Duration(setting, refuse) is { } dead)
                    {
                        options.ServerDownInterval = dead;
                    }

                    break;
                case "QUEUETIMEOUT" or "CONNECTIONIDLETIMEOUT" or "INITPOOLTIMEOUT":
                    // A request's wait for a free slot is part of its OperationTimeout; pipelined connections are kept open
                    // for the client's life and opened in the background: nothing to map.
                    Duration(setting, refuse);
                    break;
                case "MINPOOLSIZE" or "MAXPOOLSIZE":
                    // One pipelined connection carries every concurrent request (ConnectionsPerServer, default 1): a pool of
                    // one-request connections has nothing to map to.
                    if (!int.TryParse(setting.Value, NumberStyles.None, CultureInfo.InvariantCulture, out _))
                    {
                        refuse(setting, $"'{setting.Value}' is not a count");
                    }

                    break;
                default:
                    refuse(setting, "is not a setting of EnyimMemcachedCore's SocketPool this package maps (ConnectionTimeout, ReceiveTimeout, "
                        + "DeadTimeout, QueueTimeout, ConnectionIdleTimeout, InitPoolTimeout, MinPoolSize, MaxPoolSize)");
                    break;
            }
        }
    }

    private static void BindSslClientAuth(IConfigurationSection auth, MemcachedClientOptions options, Action<IConfigurationSection, string> refuse)
    {
        foreach (IConfigurationSection setting in auth.GetChildren())
        {
            switch (setting.Key.ToUpperInvariant())
            {
                case "TARGETHOST":
                    options.Tls.TargetHost = setting.Value;
                    break;
                case "ENABLEDSSLPROTOCOLS":
                    if (Enum.TryParse(setting.Value, ignoreCase: true, out SslProtocols protocols))
                    {
                        options.Tls.EnabledProtocols = protocols;
                    }
                    else
                    {
                        refuse(setting, $"'{setting.Value}' is not an SslProtocols value");
                    }

                    break;
                default:
                    refuse(setting, "has no counterpart here; set the package's Tls section instead (CaCertificatePath, ClientCertificatePath, "
                        + "ClientKeyPath, EnabledProtocols, TargetHost)");
                    break;
            }
        }
    }

    /// <summary>Binds one of the package's own settings placed in the section, by its property on <see cref="MemcachedClientOptions"/>.</summary>
    private static void BindOwn(IConfigurationSection setting, MemcachedClientOptions options, Action<IConfigurationSection, string> refuse)
    {
        if (setting.Key.Equals(Microsoft.Extensions.DependencyInjection.MemcachedServiceCollectionExtensions.TranscoderSectionName, StringComparison.OrdinalIgnoreCase))
        {
            return; // The transcoder's subsection, bound with the transcoder.
        }

        PropertyInfo? property = typeof(MemcachedClientOptions).GetProperty(setting.Key, BindingFlags.Public | BindingFlags.Instance | BindingFlags.IgnoreCase);
        if (property is null || property.Name == nameof(MemcachedClientOptions.Transcoder))
        {
            refuse(setting, "is neither a setting of EnyimMemcachedCore's MemcachedClientOptions nor of this package's (docs/migrating-from-enyim.md, \"Settings\")");
            return;
        }

        try
        {
            if (property.CanWrite)
            {
                property.SetValue(options, setting.Get(property.PropertyType));
            }
            else
            {
                setting.Bind(property.GetValue(options));
            }
        }
        catch (InvalidOperationException e)
        {
            refuse(setting, e.Message);
        }
    }

    private static bool? Flag(IConfigurationSection setting, Action<IConfigurationSection, string> refuse)
    {
        if (bool.TryParse(setting.Value, out bool value))
        {
            return value;
        }

        refuse(setting, $"'{setting.Value}' is not true or false");
        return null;
    }

    private static TimeSpan? Duration(IConfigurationSection setting, Action<IConfigurationSection, string> refuse)
    {
        if (TimeSpan.TryParse(setting.Value, CultureInfo.InvariantCulture, out TimeSpan value) && value >= TimeSpan.Zero)
        {
            return value;
        }

        refuse(setting, $"'{setting.Value}' is not a duration (hh:mm:ss)");
        return null;
    }

    private static string PathOf(IConfigurationSection setting) => setting.Path;
}
