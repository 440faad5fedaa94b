using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace CacheSerializer.LocalServers;

/// <summary>A certificate authority and the certificates it issues, made at run time with .NET's
/// <see cref="CertificateRequest"/> and written as PEM files into a temporary directory, for memcached started with TLS
/// (<c>-Z</c>) by the tests, the load test and the benchmarks. No extra tool, nothing trusted system-wide.</summary>
/// <remarks>Keys are ECDSA P-256 (made in microseconds, unlike RSA). Every certificate is valid from a day ago for a
/// year, except <see cref="ExpiredServer"/>.</remarks>
public sealed class ThrowawayCertificates : IDisposable
{
    private static readonly Oid ServerAuthentication = new("1.3.6.1.5.5.7.3.1");
    private static readonly Oid ClientAuthentication = new("1.3.6.1.5.5.7.3.2");

    private readonly List<X509Certificate2> _owned = [];

    private ThrowawayCertificates(string directory)
    {
        Directory = directory;
    }

    /// <summary>Gets the directory holding the PEM files (deleted on dispose).</summary>
    public string Directory { get; }

    /// <summary>Gets the PEM file of the authority that issued every certificate here: what a client trusts
    /// (<c>MemcachedClientOptions.Tls.CaCertificatePath</c>), and what memcached checks client certificates against
    /// (<c>ssl_ca_cert</c>).</summary>
    public string CaPath { get; private set; } = string.Empty;

    /// <summary>Gets a server certificate for 127.0.0.1, ::1 and localhost.</summary>
    public PemCertificate Server { get; private set; } = null!;

    /// <summary>Gets a server certificate for those names that expired yesterday.</summary>
    public PemCertificate ExpiredServer { get; private set; } = null!;

    /// <summary>Gets a server certificate for another host only (<c>cache.other.invalid</c>).</summary>
    public PemCertificate WrongHostServer { get; private set; } = null!;

    /// <summary>Gets a client certificate for mutual TLS.</summary>
    public PemCertificate Client { get; private set; } = null!;

    /// <summary>Gets the PEM file of a second authority that issued none of these: trusting it instead of
    /// <see cref="CaPath"/> makes every server certificate here untrusted.</summary>
    public string OtherCaPath { get; private set; } = string.Empty;

    /// <summary>Makes the authority and every certificate, in a new temporary directory.</summary>
    /// <returns>The certificates; dispose to delete their files.</returns>
    public static ThrowawayCertificates Create()
    {
        string directory = Path.Combine(Path.GetTempPath(), "cacheserializer-tls-" + Guid.NewGuid().ToString("N")[..12]);
        System.IO.Directory.CreateDirectory(directory);
        var certificates = new ThrowawayCertificates(directory);
        try
        {
            certificates.Make();
            return certificates;
        }
        catch
        {
            certificates.Dispose();
            throw;
        }
    }

    /// <summary>Deletes the files.</summary>
    public void Dispose()
    {
        foreach (X509Certificate2 certificate in _owned)
        {
            certificate.Dispose();
        }

        try
        {
            System.IO.Directory.Delete(Directory, recursive: true);
        }
        catch (IOException)
        {
        }
    }

    private void Make()
    {
        DateTimeOffset now = DateTimeOffset.UtcNow;
        X509Certificate2 ca = MakeAuthority("CN=CacheSerializer throwaway CA", now);
        CaPath = WritePem("ca.pem", ca.ExportCertificatePem());
        X509Certificate2 other = MakeAuthority("CN=CacheSerializer other CA", now);
        OtherCaPath = WritePem("other-ca.pem", other.ExportCertificatePem());

        string[] localNames = ["localhost"];
        IPAddress[] localAddresses = [IPAddress.Loopback, IPAddress.IPv6Loopback];
        Server = Issue(ca, "server", "CN=memcached test server", localNames, localAddresses, ServerAuthentication, now.AddDays(-1), now.AddYears(1));
        ExpiredServer = Issue(ca, "expired", "CN=memcached expired server", localNames, localAddresses, ServerAuthentication, now.AddDays(-3), now.AddDays(-1));
        WrongHostServer = Issue(ca, "wrong-host", "CN=cache.other.invalid", ["cache.other.invalid"], [], ServerAuthentication, now.AddDays(-1), now.AddYears(1));
        Client = Issue(ca, "client", "CN=cacheserializer test client", [], [], ClientAuthentication, now.AddDays(-1), now.AddYears(1));
    }

    private X509Certificate2 MakeAuthority(string subject, DateTimeOffset now)
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest(subject, key, HashAlgorithmName.SHA256);
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(certificateAuthority: true, hasPathLengthConstraint: true, pathLengthConstraint: 0, critical: true));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.KeyCertSign | X509KeyUsageFlags.CrlSign, critical: true));
        request.CertificateExtensions.Add(new X509SubjectKeyIdentifierExtension(request.PublicKey, critical: false));
        X509Certificate2 authority = request.CreateSelfSigned(now.AddDays(-10), now.AddYears(2));
        _owned.Add(authority);
        return authority;
    }

    private PemCertificate Issue(X509Certificate2 issuer, string name, string subject, string[] dnsNames, IPAddress[] addresses, Oid usage, DateTimeOffset notBefore, DateTimeOffset notAfter)
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest(subject, key, HashAlgorithmName.SHA256);
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(certificateAuthority: false, hasPathLengthConstraint: false, pathLengthConstraint: 0, critical: true));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.DigitalSignature | X509KeyUsageFlags.KeyAgreement, critical: true));
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([usage], critical: false));
        request.CertificateExtensions.Add(X509AuthorityKeyIdentifierExtension.CreateFromCertificate(issuer, includeKeyIdentifier: true, includeIssuerAndSerial: false));
        if (dnsNames.Length > 0 || addresses.Length > 0)
        {
            var names = new SubjectAlternativeNameBuilder();
            foreach (string dns in dnsNames)
            {
                names.AddDnsName(dns);
            }

            foreach (IPAddress address in addresses)
            {
                names.AddIpAddress(address);
            }

            request.CertificateExtensions.Add(names.Build());
        }

        byte[] serial = RandomNumberGenerator.GetBytes(12);
        serial[0] &= 0x7F; // a positive DER integer
        using X509Certificate2 certificate = request.Create(issuer, notBefore, notAfter, serial);
        string certificatePath = WritePem(name + ".pem", certificate.ExportCertificatePem());
        string keyPath = WritePem(name + "-key.pem", key.ExportPkcs8PrivateKeyPem());
        return new PemCertificate(certificatePath, keyPath, certificate.Subject);
    }

    private string WritePem(string fileName, string pem)
    {
        string path = Path.Combine(Directory, fileName);
        File.WriteAllText(path, pem);
        return path;
    }
}

/// <summary>A certificate and its private key as PEM files.</summary>
/// <param name="CertificatePath">The certificate (memcached's <c>ssl_chain_cert</c>, a client's <c>Tls.ClientCertificatePath</c>).</param>
/// <param name="KeyPath">The unencrypted PKCS#8 private key (<c>ssl_key</c>, <c>Tls.ClientKeyPath</c>).</param>
/// <param name="Subject">The certificate's subject, for messages.</param>
public sealed record PemCertificate(string CertificatePath, string KeyPath, string Subject);
