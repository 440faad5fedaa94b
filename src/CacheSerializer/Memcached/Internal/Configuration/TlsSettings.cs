using System.Globalization;
using System.Net.Security;
using System.Security.Authentication;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace CacheSerializer.Memcached.Internal.Configuration;

/// <summary>The validated TLS settings a client runs with: certificates loaded once, a fresh
/// <see cref="SslClientAuthenticationOptions"/> per connection, and a server certificate's rejection in words.</summary>
internal sealed class TlsSettings
{
    private const SslProtocols Allowed = SslProtocols.Tls12 | SslProtocols.Tls13;

    private readonly X509Certificate2Collection? _trusted;
    private readonly string? _trustedSource;
    private readonly SslStreamCertificateContext? _clientContext;

    private TlsSettings(MemcachedTlsOptions options, X509Certificate2Collection? trusted, string? trustedSource, X509Certificate2? clientCertificate)
    {
        Enabled = options.Enabled;
        TargetHost = options.TargetHost;
        Protocols = options.EnabledProtocols;
        AcceptAnyServerCertificate = options.DangerousAcceptAnyServerCertificate;
        ClientCertificate = clientCertificate;
        _trusted = trusted;
        _trustedSource = trustedSource;
        _clientContext = clientCertificate is null ? null : SslStreamCertificateContext.Create(clientCertificate, additionalCertificates: null, offline: true);
    }

    /// <summary>Gets the default of every server whose entry says neither <c>tls</c> nor <c>notls</c>.</summary>
    internal bool Enabled { get; }

    internal string? TargetHost { get; }

    internal SslProtocols Protocols { get; }

    internal bool AcceptAnyServerCertificate { get; }

    internal X509Certificate2? ClientCertificate { get; }

    /// <summary>Checks the TLS options, loading the certificate files they name; each problem names the property.</summary>
    /// <param name="options">The options.</param>
    /// <param name="problem">Receives (property, problem) for each invalid setting.</param>
    /// <returns>The settings, or null when a certificate could not be loaded (a problem was reported).</returns>
    internal static TlsSettings? Load(MemcachedTlsOptions options, Action<string, string> problem)
    {
        if (options is null)
        {
            problem(nameof(MemcachedClientOptions.Tls), "is null; leave it as it is and set its properties");
            return null;
        }

        if (options.EnabledProtocols == SslProtocols.None || (options.EnabledProtocols & ~Allowed) != 0)
        {
            problem("Tls.EnabledProtocols", $"is {options.EnabledProtocols}; use Tls12, Tls13 or both (older versions are refused)");
        }

        if (options.TargetHost is { } host && (host.Length == 0 || Uri.CheckHostName(host) == UriHostNameType.Unknown))
        {
            problem("Tls.TargetHost", $"'{host}' is not a host name or address; write the name the servers' certificates hold, or leave it empty");
        }

        bool ok = TryLoadTrusted(options, problem, out X509Certificate2Collection? trusted, out string? source);
        ok &= TryLoadClientCertificate(options, problem, out X509Certificate2? client);
        return ok ? new TlsSettings(options, trusted, source, client) : null;
    }

    /// <summary>The name the server's certificate must hold: the entry's <c>tls=name</c>, else <see cref="TargetHost"/>,
    /// else the entry's host.</summary>
    internal string TargetHostOf(ServerEndpoint endpoint) => endpoint.TlsTargetHost ?? TargetHost ?? endpoint.Host;

    /// <summary>Creates the options of one handshake; <paramref name="verdict"/> records why a certificate was rejected.</summary>
    internal SslClientAuthenticationOptions ClientOptions(ServerEndpoint endpoint, out CertificateVerdict verdict)
    {
        string targetHost = TargetHostOf(endpoint);
        verdict = new CertificateVerdict(targetHost, AcceptAnyServerCertificate, _trusted is not null);
        var options = new SslClientAuthenticationOptions
        {
            TargetHost = targetHost,
            EnabledSslProtocols = Protocols,
            CertificateRevocationCheckMode = X509RevocationMode.NoCheck,
            RemoteCertificateValidationCallback = verdict.Validate,
            ClientCertificateContext = _clientContext,

            // memcached never renegotiates; a server that asks is refused (and the connection could not interleave the
            // answer with the write side's records anyway, see PolledSocket.Write).
            AllowRenegotiation = false,
        };
        if (_trusted is not null)
        {
            // Only the configured authorities: a certificate issued by any public CA for this name is refused.
            var policy = new X509ChainPolicy
            {
                TrustMode = X509ChainTrustMode.CustomRootTrust,
                RevocationMode = X509RevocationMode.NoCheck,
            };
            policy.CustomTrustStore.AddRange(_trusted);
            options.CertificateChainPolicy = policy;
        }

        return options;
    }

    /// <summary>Describes the settings for the start-up log (never a password).</summary>
    internal string Describe()
    {
        string versions = Protocols switch
        {
            SslProtocols.Tls12 => "TLS 1.2",
            SslProtocols.Tls13 => "TLS 1.3",
            _ => "TLS 1.2 or 1.3",
        };
        string trust = AcceptAnyServerCertificate
            ? "server certificates NOT validated (DangerousAcceptAnyServerCertificate)"
            : $"server certificates validated against {_trustedSource ?? "the system's trust store"}{(TargetHost is null ? ", each server's host checked" : $", name '{TargetHost}' checked")}";
        string client = ClientCertificate is null ? string.Empty : $", client certificate '{ClientCertificate.Subject}'";
        return $"{versions}, {trust}{client}";
    }

    private static bool TryLoadTrusted(MemcachedTlsOptions options, Action<string, string> problem, out X509Certificate2Collection? trusted, out string? source)
    {
        trusted = null;
        source = null;
        if (options.CaCertificates is null)
        {
            problem("Tls.CaCertificates", "is null; leave it as it is and add certificates to it");
            return false;
        }

        if (options.CaCertificatePath is null && options.CaCertificates.Count == 0)
        {
            return true;
        }

        trusted = [.. options.CaCertificates];
        var sources = new List<string>();
        if (options.CaCertificates.Count > 0)
        {
            sources.Add(string.Create(CultureInfo.InvariantCulture, $"{options.CaCertificates.Count} CA certificates given in code"));
        }

        if (options.CaCertificatePath is { } path)
        {
            try
            {
                int before = trusted.Count;
                trusted.ImportFromPemFile(path);
                if (trusted.Count == before)
                {
                    problem("Tls.CaCertificatePath", $"'{path}' holds no PEM certificate (-----BEGIN CERTIFICATE-----); give the PEM file of the CA that issued the servers' certificates");
                    return false;
                }

                sources.Add(string.Create(CultureInfo.InvariantCulture, $"{trusted.Count - before} CA certificates from {path}"));
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or CryptographicException)
            {
                problem("Tls.CaCertificatePath", $"'{path}' could not be read ({ex.Message}); give the PEM file of the CA that issued the servers' certificates");
                return false;
            }
        }

        source = string.Join(" and ", sources) + " only";
        return true;
    }

    private static bool TryLoadClientCertificate(MemcachedTlsOptions options, Action<string, string> problem, out X509Certificate2? certificate)
    {
        certificate = options.ClientCertificate;
        string? path = options.ClientCertificatePath;
        if (options.ClientKeyPath is not null && path is null)
        {
            problem("Tls.ClientKeyPath", "is set without Tls.ClientCertificatePath; set both, or neither");
            return false;
        }

        if (path is not null && certificate is not null)
        {
            problem("Tls.ClientCertificatePath", "is set and so is Tls.ClientCertificate; give the client certificate one way only");
            return false;
        }

        if (path is not null)
        {
            try
            {
                certificate = LoadClientCertificate(path, options.ClientKeyPath, options.ClientCertificatePassword);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or CryptographicException or ArgumentException)
            {
                // The loaders' messages never quote the password.
                problem("Tls.ClientCertificatePath", $"'{path}'{(options.ClientKeyPath is null ? string.Empty : $" with key '{options.ClientKeyPath}'")} could not be loaded ({ex.Message}); give a PEM certificate with its key (or Tls.ClientKeyPath), or a PKCS#12 file (.pfx, .p12), and Tls.ClientCertificatePassword when it is encrypted");
                return false;
            }
        }

        if (certificate is not null && !certificate.HasPrivateKey)
        {
            problem(path is null ? "Tls.ClientCertificate" : "Tls.ClientCertificatePath", $"'{certificate.Subject}' has no private key; a client certificate needs its key (Tls.ClientKeyPath for a separate PEM key file)");
            return false;
        }

        return true;
    }

    private static X509Certificate2 LoadClientCertificate(string path, string? keyPath, string? password)
    {
        if (path.EndsWith(".pfx", StringComparison.OrdinalIgnoreCase) || path.EndsWith(".p12", StringComparison.OrdinalIgnoreCase))
        {
            return X509CertificateLoader.LoadPkcs12FromFile(path, password);
        }

        X509Certificate2 pem = password is null
            ? X509Certificate2.CreateFromPemFile(path, keyPath)
            : X509Certificate2.CreateFromEncryptedPemFile(path, password, keyPath);
        if (!OperatingSystem.IsWindows())
        {
            return pem;
        }

        // SChannel cannot use the ephemeral key a PEM file gives; a PKCS#12 round trip gives it a stored one.
        using (pem)
        {
            return X509CertificateLoader.LoadPkcs12(pem.Export(X509ContentType.Pkcs12), null);
        }
    }

    /// <summary>Says why a certificate's chain was refused and what to change: at least one reason.</summary>
    private static List<string> ChainReasons(X509Certificate2 certificate, X509Chain? chain, bool customTrust)
    {
        var reasons = new List<string>();
        X509ChainStatusFlags status = X509ChainStatusFlags.NoError;
        foreach (X509ChainStatus s in chain?.ChainStatus ?? [])
        {
            status |= s.Status;
        }

        if ((status & X509ChainStatusFlags.NotTimeValid) != 0)
        {
            reasons.Add(string.Create(CultureInfo.InvariantCulture, $"it is not valid now (valid from {certificate.NotBefore.ToUniversalTime():yyyy-MM-dd HH:mm:ss} to {certificate.NotAfter.ToUniversalTime():yyyy-MM-dd HH:mm:ss} UTC); renew the server's certificate"));
        }

        if ((status & (X509ChainStatusFlags.UntrustedRoot | X509ChainStatusFlags.PartialChain)) != 0)
        {
            reasons.Add(customTrust
                ? $"it is not issued by a certificate authority of Tls.CaCertificatePath or Tls.CaCertificates (its issuer is '{certificate.Issuer}'); trust the CA that issued it"
                : $"it is not issued by a certificate authority the system trusts (its issuer is '{certificate.Issuer}'); set MemcachedClientOptions.Tls.CaCertificatePath to the PEM file of the CA that issued it");
        }

        X509ChainStatusFlags other = status & ~(X509ChainStatusFlags.NotTimeValid | X509ChainStatusFlags.UntrustedRoot | X509ChainStatusFlags.PartialChain);
        if (other != X509ChainStatusFlags.NoError || reasons.Count == 0)
        {
            reasons.Add($"its chain is invalid ({other})");
        }

        return reasons;
    }

    /// <summary>The names a certificate holds, as its subject alternative names, for a name mismatch's message.</summary>
    private static string NamesOf(X509Certificate2 certificate)
    {
        var names = new List<string>();
        foreach (X509Extension extension in certificate.Extensions)
        {
            if (extension is X509SubjectAlternativeNameExtension san)
            {
                names.AddRange(san.EnumerateDnsNames().Select(static n => "DNS:" + n));
                names.AddRange(san.EnumerateIPAddresses().Select(static a => "IP:" + a));
            }
        }

        return names.Count > 0 ? string.Join(", ", names) : $"no subject alternative name, subject '{certificate.Subject}'";
    }

    /// <summary>Validates one server certificate and keeps, in words, why it was rejected.</summary>
    internal sealed class CertificateVerdict(string targetHost, bool acceptAny, bool customTrust)
    {
        /// <summary>Gets why the certificate was rejected and what to change, or null when it was not.</summary>
        internal string? Rejection { get; private set; }

        internal bool Validate(object sender, X509Certificate? certificate, X509Chain? chain, SslPolicyErrors errors)
        {
            if (errors == SslPolicyErrors.None || acceptAny)
            {
                return true;
            }

            Rejection = Explain(certificate as X509Certificate2, chain, errors);
            return false;
        }

        private string Explain(X509Certificate2? certificate, X509Chain? chain, SslPolicyErrors errors)
        {
            if (certificate is null || errors.HasFlag(SslPolicyErrors.RemoteCertificateNotAvailable))
            {
                return "the server sent no certificate";
            }

            List<string> reasons = errors.HasFlag(SslPolicyErrors.RemoteCertificateChainErrors) ? ChainReasons(certificate, chain, customTrust) : [];
            if (errors.HasFlag(SslPolicyErrors.RemoteCertificateNameMismatch))
            {
                reasons.Add($"it is not issued for '{targetHost}' (it holds {NamesOf(certificate)}); connect by one of those names, or set MemcachedClientOptions.Tls.TargetHost (or tls=<name> on the server entry) to the name it holds");
            }

            return $"the server's certificate '{certificate.Subject}' was rejected: {string.Join("; ", reasons)}";
        }
    }
}
