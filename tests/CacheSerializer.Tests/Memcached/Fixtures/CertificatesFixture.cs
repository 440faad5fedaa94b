using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;

namespace CacheSerializer.Tests.Memcached.Fixtures;

/// <summary>One throwaway certificate authority and its certificates (<see cref="ThrowawayCertificates"/>) shared by the
/// TLS and authentication tests; each test starts the memcached its scenario needs (memcached cannot reload certificates).</summary>
public sealed class CertificatesFixture : IDisposable
{
    /// <summary>Makes the certificates.</summary>
    public CertificatesFixture()
    {
        Certificates = ThrowawayCertificates.Create();
        _sharedTls = new Lazy<MemcachedServer>(() => StartTls());
    }

    private readonly Lazy<MemcachedServer> _sharedTls;

    /// <summary>Gets the certificates and their PEM files.</summary>
    public ThrowawayCertificates Certificates { get; }

    /// <summary>Gets a TLS server with the valid certificate, shared by the tests that only need one (each uses its own keys).</summary>
    public MemcachedServer SharedTlsServer => _sharedTls.Value;

    /// <summary>Starts memcached serving TLS with <paramref name="certificate"/> (default: the valid server certificate).</summary>
    public MemcachedServer StartTls(PemCertificate? certificate = null, bool requireClientCertificate = false, params KeyValuePair<string, string>[] users) =>
        MemcachedServer.Start(security: new MemcachedServerSecurity
        {
            Certificate = certificate ?? Certificates.Server,
            ClientCaPath = requireClientCertificate ? Certificates.CaPath : null,
            Users = users,
        });

    /// <summary>Options for one server with TLS on, trusting the throwaway CA only, and timeouts suited to tests.</summary>
    public MemcachedClientOptions TlsOptions(MemcachedServer server, Action<MemcachedClientOptions>? configure = null)
    {
        var options = new MemcachedClientOptions
        {
            Servers = { server.Endpoint },
            ConnectTimeout = TimeSpan.FromSeconds(5),
            OperationTimeout = TimeSpan.FromSeconds(5),
            ServerDownInterval = TimeSpan.FromMilliseconds(300),
            OnServerFailure = ServerFailurePolicy.Throw,
        };
        options.Tls.Enabled = true;
        options.Tls.CaCertificatePath = Certificates.CaPath;
        configure?.Invoke(options);
        return options;
    }

    /// <summary>Stops the shared server and deletes the certificate files.</summary>
    public void Dispose()
    {
        if (_sharedTls.IsValueCreated)
        {
            _sharedTls.Value.Dispose();
        }

        Certificates.Dispose();
    }
}
