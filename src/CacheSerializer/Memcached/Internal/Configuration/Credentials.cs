using System.Buffers;
using System.Globalization;
using System.Text;

namespace CacheSerializer.Memcached.Internal.Configuration;

/// <summary>The user name and password for memcached's ASCII authentication (<c>-Y authfile</c>). The password is only
/// ever written into the authentication command; <see cref="ToString"/> and every message show the user alone.</summary>
internal sealed class Credentials
{
    /// <summary>memcached 1.6.18 reads its auth file with <c>fgets</c> of 256 bytes per <c>user:password</c> line.</summary>
    private const int MaxBytes = 250;

    private readonly string _password;

    private Credentials(string userName, string password)
    {
        UserName = userName;
        _password = password;
    }

    internal string UserName { get; }

    /// <summary>Checks <see cref="MemcachedClientOptions.UserName"/> and <see cref="MemcachedClientOptions.Password"/>;
    /// a problem never quotes the password.</summary>
    /// <returns>The credentials, or null when there are none or they are invalid (a problem was reported).</returns>
    internal static Credentials? Load(MemcachedClientOptions options, Action<string, string> problem)
    {
        string? user = options.UserName;
        string? password = options.Password;
        if (string.IsNullOrEmpty(user) && string.IsNullOrEmpty(password))
        {
            return null;
        }

        if (string.IsNullOrEmpty(user))
        {
            problem(nameof(MemcachedClientOptions.UserName), "is empty while Password is set; set both (memcached -Y authenticates a user:password pair), or neither");
            return null;
        }

        if (string.IsNullOrEmpty(password))
        {
            problem(nameof(MemcachedClientOptions.Password), $"is empty while UserName is set ('{user}'); set both (memcached -Y authenticates a user:password pair), or neither");
            return null;
        }

        bool ok = true;
        if (user.Any(static c => char.IsWhiteSpace(c) || char.IsControl(c) || c == ':'))
        {
            problem(nameof(MemcachedClientOptions.UserName), $"'{user}' has a space, a control character or ':'; memcached's auth file separates user and password with ':' and its command with a space");
            ok = false;
        }

        if (password.Any(static c => char.IsWhiteSpace(c) || char.IsControl(c)))
        {
            problem(nameof(MemcachedClientOptions.Password), "has a space or a control character (not shown); memcached's authentication command separates user and password with a space, so such a password can never match");
            ok = false;
        }

        int bytes = Encoding.UTF8.GetByteCount(user) + Encoding.UTF8.GetByteCount(password);
        if (bytes > MaxBytes)
        {
            problem(nameof(MemcachedClientOptions.Password), string.Create(CultureInfo.InvariantCulture, $"and UserName are {bytes} bytes together; memcached reads auth file lines of at most 255 bytes, so keep them under {MaxBytes}"));
            ok = false;
        }

        return ok ? new Credentials(user, password) : null;
    }

    /// <summary>Writes memcached's authentication command, <c>set auth 0 0 &lt;n&gt;\r\n&lt;user&gt; &lt;password&gt;\r\n</c>
    /// (doc/protocol.txt, "Authentication": the key, flags and exptime are ignored). Clear the buffer after use.</summary>
    internal int WriteAuthCommand(out byte[] rented)
    {
        int payload = Encoding.UTF8.GetByteCount(UserName) + 1 + Encoding.UTF8.GetByteCount(_password);
        string header = string.Create(CultureInfo.InvariantCulture, $"set auth 0 0 {payload}\r\n");
        rented = ArrayPool<byte>.Shared.Rent(header.Length + payload + 2);
        int n = Encoding.ASCII.GetBytes(header, rented);
        n += Encoding.UTF8.GetBytes(UserName, rented.AsSpan(n));
        rented[n++] = (byte)' ';
        n += Encoding.UTF8.GetBytes(_password, rented.AsSpan(n));
        rented[n++] = (byte)'\r';
        rented[n++] = (byte)'\n';
        return n;
    }

    public override string ToString() => $"user '{UserName}'";
}
