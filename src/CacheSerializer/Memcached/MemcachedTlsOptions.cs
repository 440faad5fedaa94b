using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using System.Text;

namespace CacheSerializer.Memcached;

/// <summary>How the client encrypts its connections (<see cref="MemcachedClientOptions.Tls"/>): TLS 1.2 or later, the
/// server's certificate validated, optionally a client certificate for mutual TLS.</summary>
/// <remarks>
/// memcached 1.6 serves TLS when started with <c>-Z -o ssl_chain_cert=...,ssl_key=...</c>. A server entry can turn TLS on
/// or off for itself whatever <see cref="Enabled"/> says (<c>"cache-1:11211 tls"</c>, <c>"10.0.0.5:11211 tls=cache-1.internal"</c>,
/// <c>"127.0.0.1:11211 notls"</c>); every other setting here applies to every server that uses TLS. docs/security.md
/// explains what TLS protects and what it does not.
/// </remarks>
public sealed class MemcachedTlsOptions
{
    /// <summary>Gets or sets a value indicating whether connections use TLS (servers whose entry says <c>tls</c> or
    /// <c>notls</c> excepted).</summary>
    /// <value><see langword="false"/>: plaintext, as memcached serves by default.</value>
    public bool Enabled { get; set; }

    /// <summary>Gets or sets the name the servers' certificates must hold (and the SNI name sent), when it is not the host
    /// of each server entry, for example when servers are listed by address and share a certificate for one name.</summary>
    /// <value><see langword="null"/>: each server's host as configured, a name or an address (checked against the
    /// certificate's DNS or IP subject alternative names). A server entry's <c>tls=name</c> takes precedence.</value>
    public string? TargetHost { get; set; }

    /// <summary>Gets or sets a PEM file of the certificate authorities that issue the servers' certificates; when set,
    /// only these (and <see cref="CaCertificates"/>) are trusted, not the system's trust store.</summary>
    /// <value><see langword="null"/>: the system's trust store, unless <see cref="CaCertificates"/> holds some.</value>
    public string? CaCertificatePath { get; set; }

    /// <summary>Gets the certificate authorities to trust, added in code (for example loaded from a secret store); when
    /// any is given, only these (and <see cref="CaCertificatePath"/>'s) are trusted, not the system's trust store.</summary>
    /// <value>Empty.</value>
    public X509Certificate2Collection CaCertificates { get; } = [];

    /// <summary>Gets or sets the client certificate for mutual TLS (memcached <c>-o ssl_verify_mode=2,ssl_ca_cert=...</c>):
    /// a PEM file holding the certificate (and its key, unless <see cref="ClientKeyPath"/> is set), or a PKCS#12 file
    /// (<c>.pfx</c>, <c>.p12</c>).</summary>
    /// <value><see langword="null"/>: no client certificate.</value>
    public string? ClientCertificatePath { get; set; }

    /// <summary>Gets or sets the PEM file of the client certificate's private key, when <see cref="ClientCertificatePath"/>
    /// holds only the certificate.</summary>
    /// <value><see langword="null"/>.</value>
    public string? ClientKeyPath { get; set; }

    /// <summary>Gets or sets the password of the PKCS#12 file or of the encrypted PEM key. A secret: it never appears in
    /// logs, messages or <see cref="ToString"/>.</summary>
    /// <value><see langword="null"/>: the file is not encrypted.</value>
    public string? ClientCertificatePassword { get; set; }

    /// <summary>Gets or sets the client certificate, with its private key, given in code instead of
    /// <see cref="ClientCertificatePath"/>.</summary>
    /// <value><see langword="null"/>.</value>
    public X509Certificate2? ClientCertificate { get; set; }

    /// <summary>Gets or sets the TLS versions the client offers; only TLS 1.2 and TLS 1.3 are accepted.</summary>
    /// <value><see cref="SslProtocols.Tls12"/> | <see cref="SslProtocols.Tls13"/>: the newest both sides support.</value>
    public SslProtocols EnabledProtocols { get; set; } = SslProtocols.Tls12 | SslProtocols.Tls13;

    /// <summary>Gets or sets a value indicating whether the client accepts any server certificate: untrusted, expired or
    /// issued for another name. The connection is then encrypted but not authenticated, so anyone on the network path can
    /// impersonate the servers and read or change every entry. Only for tests; the client logs a warning at start-up.</summary>
    /// <value><see langword="false"/>: the certificate must chain to a trusted authority, be valid now and hold the
    /// server's name.</value>
    public bool DangerousAcceptAnyServerCertificate { get; set; }

    /// <summary>Describes the settings, with <see cref="ClientCertificatePassword"/> hidden.</summary>
    /// <returns>The settings as <c>Name = value</c> pairs.</returns>
    public override string ToString()
    {
        var text = new StringBuilder("{ ");
        text.Append("Enabled = ").Append(Enabled)
            .Append(", TargetHost = ").Append(TargetHost ?? "(each server's host)")
            .Append(", CaCertificatePath = ").Append(CaCertificatePath ?? "(none)")
            .Append(", CaCertificates = ").Append(CaCertificates.Count)
            .Append(", ClientCertificatePath = ").Append(ClientCertificatePath ?? "(none)")
            .Append(", ClientKeyPath = ").Append(ClientKeyPath ?? "(none)")
            .Append(", ClientCertificatePassword = ").Append(ClientCertificatePassword is null ? "(none)" : MemcachedClientOptions.Hidden)
            .Append(", ClientCertificate = ").Append(ClientCertificate?.Subject ?? "(none)")
            .Append(", EnabledProtocols = ").Append(EnabledProtocols)
            .Append(", DangerousAcceptAnyServerCertificate = ").Append(DangerousAcceptAnyServerCertificate)
            .Append(" }");
        return text.ToString();
    }
}
