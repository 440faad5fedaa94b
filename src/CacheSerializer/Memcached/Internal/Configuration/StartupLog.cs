using Microsoft.Extensions.Logging;

namespace CacheSerializer.Memcached.Internal.Configuration;

/// <summary>What a client says once, at start-up: its servers and settings, and the settings that leave the cache open.</summary>
internal static partial class StartupLog
{
    /// <summary>Logs the settings the client runs with (every option, as <see cref="ClientSettings"/> maps and describes
    /// them), what TLS and authentication come to, and the transcoder; then warns of configuration settings that had no
    /// effect and of weak security settings.</summary>
    internal static void Write(ClientSettings settings, ILogger logger)
    {
        if (logger.IsEnabled(LogLevel.Information))
        {
            (string tls, string authentication) = settings.DescribeSecurity();
            LogStarted(logger, settings.Servers.Count, settings.Description, tls, authentication, settings.TranscoderDescription);
        }

        foreach (string warning in settings.BindingWarnings)
        {
            LogBindingWarning(logger, warning);
        }

        WarnOfWeakSecurity(settings, logger);
    }

    /// <summary>Warns once, at start-up, of settings that leave the cache open: server certificates not validated, a
    /// password sent in clear text.</summary>
    private static void WarnOfWeakSecurity(ClientSettings settings, ILogger logger)
    {
        if (settings.Tls is { AcceptAnyServerCertificate: true })
        {
            LogCertificatesNotValidated(logger);
        }

        if (settings.Credentials is { } credentials)
        {
            string[] plaintext = [.. settings.Servers.Where(s => settings.TlsFor(s) is null).Select(static s => s.Name)];
            if (plaintext.Length > 0)
            {
                LogPasswordInClearText(logger, credentials.UserName, string.Join(", ", plaintext));
            }
        }
    }

    [LoggerMessage(EventId = 10, Level = LogLevel.Information, Message = "memcached client: {ServerCount} servers; {Settings}; TLS {Tls}, authentication {Authentication}; transcoder {Transcoder}")]
    private static partial void LogStarted(ILogger logger, int serverCount, string settings, string tls, string authentication, string transcoder);

    [LoggerMessage(EventId = 12, Level = LogLevel.Warning, Message = "memcached client: server certificates are NOT validated (MemcachedClientOptions.Tls.DangerousAcceptAnyServerCertificate): the connections are encrypted, but anyone on the network path can impersonate the servers and read or change every cached entry; use it only in tests")]
    private static partial void LogCertificatesNotValidated(ILogger logger);

    [LoggerMessage(EventId = 13, Level = LogLevel.Warning, Message = "memcached client: the password of user '{UserName}' is sent in clear text to {Servers}, which are reached without TLS; anyone on the network path can read it (set MemcachedClientOptions.Tls.Enabled)")]
    private static partial void LogPasswordInClearText(ILogger logger, string userName, string servers);

    [LoggerMessage(EventId = 14, Level = LogLevel.Warning, Message = "memcached client: {Warning}")]
    private static partial void LogBindingWarning(ILogger logger, string warning);
}
