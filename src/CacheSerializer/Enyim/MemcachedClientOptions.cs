using System.Net.Security;
using Microsoft.Extensions.Options;

namespace CacheSerializer.Enyim;

/// <summary>
/// EnyimMemcachedCore's client options with its members, for <c>services.AddEnyimMemcached(options =&gt; ...)</c>: code
/// that configured EnyimMemcachedCore compiles unchanged. Each member set is mapped or refused at start-up exactly as the
/// same setting in an <c>enyimMemcached</c> section is (docs/migrating-from-enyim.md, "Settings"); a member left unset
/// takes this package's default, as a setting absent from the section does.
/// </summary>
/// <remarks>
/// EnyimMemcachedCore's <c>SocketPool.FailurePolicyFactory</c> and <c>NodeLocatorFactory</c> take its own types and
/// have no counterpart here (the section path refuses them too). The members are those of its
/// src/Enyim.Caching/Configuration/MemcachedClientOptions.cs (cnblogs/EnyimMemcachedCore at e383c4c7).
/// </remarks>
public class MemcachedClientOptions : IOptions<MemcachedClientOptions>
{
    private MemcachedProtocol? _protocol;
    private bool? _useLegacyNodeLocator;
    private bool? _useSslStream;
    private bool? _useIPv6;
    private bool? _suppressException;

    /// <summary>Gets or sets the protocol EnyimMemcachedCore spoke: either reads and writes the same items here (this package speaks the meta protocol).</summary>
    /// <value><see cref="MemcachedProtocol.Binary"/>.</value>
    public MemcachedProtocol Protocol { get => _protocol ?? MemcachedProtocol.Binary; set => _protocol = value; }

    /// <summary>Gets or sets the socket pool's timeouts (<c>ConnectionTimeout</c>, <c>ReceiveTimeout</c>, <c>DeadTimeout</c> are mapped).</summary>
    /// <value><see langword="null"/>: this package's timeouts.</value>
    public SocketPoolOptions? SocketPool { get; set; }

    /// <summary>Gets or sets the servers; keys are placed on them as EnyimMemcachedCore places them.</summary>
    /// <value>Empty; at least one is required.</value>
    public List<Server> Servers { get; set; } = [];

    /// <summary>Gets or sets whether keys are placed as EnyimMemcachedCore's LegacyNodeLocator places them.</summary>
    /// <value><see langword="false"/>: its DefaultNodeLocator.</value>
    public bool UseLegacyNodeLocator { get => _useLegacyNodeLocator ?? false; set => _useLegacyNodeLocator = value; }

    /// <summary>Gets or sets SASL authentication: refused (memcached offers SASL to binary clients only; docs/migrating-from-enyim.md, "Authentication").</summary>
    /// <value><see langword="null"/>.</value>
    public Authentication? Authentication { get; set; }

    /// <summary>Gets or sets the key transformer's type name, resolved as EnyimMemcachedCore's <c>Type.GetType</c> resolves it.</summary>
    /// <value><see langword="null"/>: keys unchanged.</value>
    public string? KeyTransformer { get; set; }

    /// <summary>Gets or sets the transcoder's name (<c>MessagePackTranscoder</c>, <c>BinaryFormatterTranscoder</c>, or a type name),
    /// resolved as EnyimMemcachedCore resolves it; its objects are read, and written until the flip (<see cref="ObjectFormat"/>).</summary>
    /// <value><see langword="null"/>: DefaultTranscoder's objects.</value>
    public string? Transcoder { get; set; }

    /// <summary>Gets or sets whether connections use TLS.</summary>
    /// <value><see langword="false"/>.</value>
    public bool UseSslStream { get => _useSslStream ?? false; set => _useSslStream = value; }

    /// <summary>Gets or sets EnyimMemcachedCore's IPv6 switch: nothing to map (every address a host name resolves to is tried, IPv6 and IPv4).</summary>
    /// <value><see langword="false"/>.</value>
    public bool UseIPv6 { get => _useIPv6 ?? false; set => _useIPv6 = value; }

    /// <summary>Gets or sets whether a server failure is a miss (<see langword="true"/>) or an exception.</summary>
    /// <value><see langword="true"/>.</value>
    public bool SuppressException { get => _suppressException ?? true; set => _suppressException = value; }

    /// <summary>Gets or sets the TLS client options: <c>TargetHost</c> and <c>EnabledSslProtocols</c> are mapped, anything else is refused.</summary>
    /// <value><see langword="null"/>.</value>
    public SslClientAuthenticationOptions? SslClientAuth { get; set; }

    /// <summary>Gets or sets how objects are written: this package's own setting, <c>ProtobufTranscoder:ObjectFormat</c> in a
    /// section. Set <see cref="TranscoderObjectFormat.Protobuf"/> once no EnyimMemcachedCore application shares the cache (the flip).</summary>
    /// <value><see langword="null"/>: the migration phase, objects written as the EnyimMemcachedCore transcoder writes them.</value>
    public TranscoderObjectFormat? ObjectFormat { get; set; }

    /// <summary>Gets the options themselves, as EnyimMemcachedCore's do (<see cref="IOptions{TOptions}"/>).</summary>
    public MemcachedClientOptions Value => this;

    /// <summary>Adds a server.</summary>
    /// <param name="address">Its host name or IP address.</param>
    /// <param name="port">Its port.</param>
    public void AddServer(string address, int port) => Servers.Add(new Server { Address = address, Port = port });

    /// <summary>Adds the server <c>memcached:11211</c>, as EnyimMemcachedCore's <c>AddDefaultServer</c> does.</summary>
    public void AddDefaultServer() => AddServer("memcached", 11211);

    /// <summary>Sets EnyimMemcachedCore's SASL PLAIN authentication, which is refused at start-up (see <see cref="Authentication"/>).</summary>
    /// <param name="zone">The SASL zone.</param>
    /// <param name="userName">The user name.</param>
    /// <param name="password">The password.</param>
    public void AddPlainTextAuthenticator(string zone, string userName, string password) => Authentication = new Authentication
    {
        Type = "Enyim.Caching.Memcached.PlainTextAuthenticator",
        Parameters = new Dictionary<string, string> { ["zone"] = zone, ["userName"] = userName, ["password"] = password },
    };

    /// <summary>The members the application set, as the keys and values of an EnyimMemcachedCore section.</summary>
    internal IEnumerable<KeyValuePair<string, string?>> Settings()
    {
        for (int i = 0; i < Servers.Count; i++)
        {
            yield return new($"Servers:{i}:Address", Servers[i].Address);
            yield return new($"Servers:{i}:Port", Servers[i].Port.ToString(System.Globalization.CultureInfo.InvariantCulture));
        }

        foreach (KeyValuePair<string, string?> setting in Set("Protocol", _protocol?.ToString())
            .Concat(Set("UseLegacyNodeLocator", _useLegacyNodeLocator))
            .Concat(Set("UseSslStream", _useSslStream))
            .Concat(Set("UseIPv6", _useIPv6))
            .Concat(Set("SuppressException", _suppressException))
            .Concat(Set("KeyTransformer", KeyTransformer))
            .Concat(Set("Transcoder", Transcoder))
            .Concat(Set($"ProtobufTranscoder:{nameof(ObjectFormat)}", ObjectFormat?.ToString()))
            .Concat(SocketPool?.Settings() ?? [])
            .Concat(Authentication?.Settings() ?? [])
            .Concat(SslSettings()))
        {
            yield return setting;
        }
    }

    private static IEnumerable<KeyValuePair<string, string?>> Set(string key, string? value) =>
        value is null ? [] : [new(key, value)];

    private static IEnumerable<KeyValuePair<string, string?>> Set(string key, bool? value) =>
        value is { } flag ? [new(key, flag ? "true" : "false")] : [];

    /// <summary>The TLS client options as the section's <c>SslClientAuth</c>: what it maps, and a key for each member set
    /// that has no counterpart, which the section's mapping refuses.</summary>
    private IEnumerable<KeyValuePair<string, string?>> SslSettings()
    {
        if (SslClientAuth is not { } tls)
        {
            yield break;
        }

        var defaults = new SslClientAuthenticationOptions();
        if (tls.TargetHost is { } host)
        {
            yield return new("SslClientAuth:TargetHost", host);
        }

        if (tls.EnabledSslProtocols != defaults.EnabledSslProtocols)
        {
            yield return new("SslClientAuth:EnabledSslProtocols", tls.EnabledSslProtocols.ToString());
        }

        (string Name, bool Set)[] unmapped =
        [
            (nameof(tls.ClientCertificates), tls.ClientCertificates is { Count: > 0 }),
            (nameof(tls.ClientCertificateContext), tls.ClientCertificateContext is not null),
            (nameof(tls.RemoteCertificateValidationCallback), tls.RemoteCertificateValidationCallback is not null),
            (nameof(tls.LocalCertificateSelectionCallback), tls.LocalCertificateSelectionCallback is not null),
            (nameof(tls.CertificateRevocationCheckMode), tls.CertificateRevocationCheckMode != defaults.CertificateRevocationCheckMode),
            (nameof(tls.CertificateChainPolicy), tls.CertificateChainPolicy is not null),
            (nameof(tls.EncryptionPolicy), tls.EncryptionPolicy != defaults.EncryptionPolicy),
            (nameof(tls.CipherSuitesPolicy), tls.CipherSuitesPolicy is not null),
            (nameof(tls.ApplicationProtocols), tls.ApplicationProtocols is { Count: > 0 }),
            (nameof(tls.AllowRenegotiation), tls.AllowRenegotiation != defaults.AllowRenegotiation),
            (nameof(tls.AllowTlsResume), tls.AllowTlsResume != defaults.AllowTlsResume),
        ];
        foreach ((string name, bool _) in unmapped.Where(static member => member.Set))
        {
            yield return new($"SslClientAuth:{name}", "(set in code)");
        }
    }
}
