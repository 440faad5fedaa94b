using CacheSerializer.Memcached.Internal.Configuration;
using Microsoft.Extensions.Logging;

namespace CacheSerializer.Memcached;

// What the client says once, at start-up: its servers and settings, and the settings that leave the cache open.
public sealed partial class MemcachedClient
{
    /// <summary>Logs the servers and the settings the client runs with, once, at start-up.</summary>
    private void LogSettings()
    {
    if (_logger.IsEnabled(LogLevel.Information))
    {
        string servers = string.Join(", ", Servers);
        (string tls, string authentication) = _settings.DescribeSecurity();
        LogStarted(_logger, _nodes.Length, servers, _settings.ConnectionsPerServer, _settings.OperationTimeout.TotalMilliseconds,
        _settings.ConnectTimeout.TotalMilliseconds, _settings.ServerDownInterval.TotalMilliseconds, _settings.OnServerFailure,
        _settings.OnUnreadableItem == UnreadableItemPolicy.Miss && _settings.DeleteUnreadableItems ? "Miss, deleted if unchanged" : _settings.OnUnreadableItem.ToString(),
        _settings.AutoEject ? (_settings.FlushOnReturn ? "on, flush on return" : "on, no flush on return") : "off",
        _settings.KeyPlacement, _settings.KeyTransformer == MemcachedKeyTransformer.None ? string.Empty : $" after {_settings.KeyTransformer} key transformation",
        _settings.KeyPrefix, _settings.MaxValueSize, tls, authentication, _settings.TranscoderDescription);
    }
    }

    /// <summary>Warns once, at start-up, of settings that leave the cache open: server certificates not validated, a
    /// password sent in clear text.</summary>
    private void WarnOfWeakSecurity()
    {
        if (_settings.Tls is { AcceptAnyServerCertificate: true })
        {
            LogCertificatesNotValidated(_logger);
        }

        if (_settings.Credentials is { } credentials)
        {
            string[] plaintext = [.. _settings.Servers.Where(s => _settings.TlsFor(s) is null).Select(static s => s.Name)];
            if (plaintext.Length > 0)
            {
                LogPasswordInClearText(_logger, credentials.UserName, string.Join(", ", plaintext));
            }
        }
    }

    [LoggerMessage(EventId = 10, Level = LogLevel.Information, Message = "memcached client: {ServerCount} servers ({Servers}), {ConnectionsPerServer} connections per server, operation timeout {OperationTimeoutMs} ms, connect timeout {ConnectTimeoutMs} ms, down servers retried every {DownIntervalMs} ms, on server failure {OnServerFailure}, on unreadable item {OnUnreadableItem}, auto-eject {AutoEject}, keys placed by {KeyPlacement}{KeyTransformer}, key prefix '{KeyPrefix}', values up to {MaxValueSize} bytes, TLS {Tls}, authentication {Authentication}; transcoder {Transcoder}")]
    private static partial void LogStarted(ILogger logger, int serverCount, string servers, int connectionsPerServer, double operationTimeoutMs, double connectTimeoutMs,
        double downIntervalMs, ServerFailurePolicy onServerFailure, string onUnreadableItem, string autoEject, KeyPlacement keyPlacement, string keyTransformer, string keyPrefix, int maxValueSize, string tls, string authentication, string transcoder);

    [LoggerMessage(EventId = 12, Level = LogLevel.Warning, Message = "memcached client: server certificates are NOT validated (MemcachedClientOptions.Tls.DangerousAcceptAnyServerCertificate): the connections are encrypted, but anyone on the network path can impersonate the servers and read or change every cached entry; use it only in tests")]
    private static partial void LogCertificatesNotValidated(ILogger logger);

    [LoggerMessage(EventId = 13, Level = LogLevel.Warning, Message = "memcached client: the password of user '{UserName}' is sent in clear text to {Servers}, which are reached without TLS; anyone on the network path can read it (set MemcachedClientOptions.Tls.Enabled)")]
    private static partial void LogPasswordInClearText(ILogger logger, string userName, string servers);
}
