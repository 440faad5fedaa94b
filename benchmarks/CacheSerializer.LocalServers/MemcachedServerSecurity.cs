using System.Globalization;
using System.Text;

namespace CacheSerializer.LocalServers;

/// <summary>What a started memcached requires of its clients: TLS (<c>-Z</c>), a client certificate, and ASCII
/// authentication (<c>-Y authfile</c>). memcached 1.6.18 cannot reload certificates or users, so a scenario that needs
/// other ones starts a server of its own.</summary>
public sealed record MemcachedServerSecurity
{
    /// <summary>Gets the server's certificate and key: memcached serves TLS only (<c>-Z -o ssl_chain_cert=...,ssl_key=...</c>).</summary>
    /// <value>Null: plaintext.</value>
    public PemCertificate? Certificate { get; init; }

    /// <summary>Gets the PEM file of the authority client certificates must be issued by: memcached then requires one
    /// (<c>ssl_ca_cert</c>, <c>ssl_verify_mode=2</c>). Needs <see cref="Certificate"/>.</summary>
    /// <value>Null: no client certificate asked for.</value>
    public string? ClientCaPath { get; init; }

    /// <summary>Gets the users memcached accepts (<c>-Y</c> with an auth file of <c>user:password</c> lines); empty for no authentication.</summary>
    public IReadOnlyList<KeyValuePair<string, string>> Users { get; init; } = [];

    /// <summary>The memcached arguments, writing the auth file into <paramref name="directory"/>.</summary>
    internal string ToArguments(string directory)
    {
        var arguments = new StringBuilder();
        if (Certificate is { } certificate)
        {
            arguments.Append(CultureInfo.InvariantCulture, $" -Z -o ssl_chain_cert={certificate.CertificatePath},ssl_key={certificate.KeyPath}");
            if (ClientCaPath is not null)
            {
                arguments.Append(CultureInfo.InvariantCulture, $",ssl_ca_cert={ClientCaPath},ssl_verify_mode=2");
            }
        }
        else if (ClientCaPath is not null)
        {
            throw new InvalidOperationException("a client certificate can only be required over TLS: set Certificate too");
        }

        if (Users.Count > 0)
        {
            string authFile = Path.Combine(directory, "memcached-auth-" + Guid.NewGuid().ToString("N")[..8]);
            File.WriteAllLines(authFile, Users.Select(static u => $"{u.Key}:{u.Value}"));
            arguments.Append(CultureInfo.InvariantCulture, $" -Y {authFile}");
        }

        return arguments.ToString();
    }
}
