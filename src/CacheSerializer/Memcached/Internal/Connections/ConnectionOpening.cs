using System.Buffers;
using System.Net;
using System.Net.Security;
using System.Security.Authentication;
using System.Security.Cryptography;
using System.Text;
using CacheSerializer.Memcached.Internal.Configuration;

namespace CacheSerializer.Memcached.Internal.Connections;

/// <summary>Where an opening connection is, for the connect timeout's message.</summary>
internal static class ConnectionStage
{
    internal const string Connecting = "connecting";
    internal const string Handshake = "in the TLS handshake";
    internal const string Greeting = "waiting for the server's answer to mn";
    internal const string Authenticating = "authenticating";
}

/// <summary>One attempt to open a connection, run on a thread of its own within the connect timeout: TCP connect, then
/// when configured the TLS handshake and the greeting (<c>mn</c>, and memcached's authentication when the server asks
/// for it). Nothing else is sent before it ends, so authentication always comes first on a connection.</summary>
/// <remarks>
/// <para>The greeting runs on every TLS connection and on every connection with credentials; a plaintext connection
/// without credentials is usable once connected, as before (a server that requires authentication is then recognised by
/// its first reply, <see cref="MemcachedConnection"/>).</para>
/// <para>Checked on memcached 1.6.18 (proto_text.c, <c>try_read_command_asciiauth</c>): with <c>-Y</c>, every command of
/// an unauthenticated connection is answered <c>CLIENT_ERROR unauthenticated</c>, and <c>set &lt;any key&gt; 0 0 &lt;n&gt;</c>
/// carrying <c>user password</c> answers <c>STORED</c> or <c>CLIENT_ERROR authentication failure</c>. Without <c>-Y</c>
/// that same set would store the password as a value: so <c>mn</c> goes first, and the password is sent only to a
/// server that answered it with <c>CLIENT_ERROR unauthenticated</c>. One command at a time: memcached 1.6.18 drops
/// replies to commands pipelined behind an authentication.</para>
/// <para>With TLS 1.3 the server checks the client's certificate after the client's side of the handshake is done, so
/// a server that refuses it is only heard from at the first read: the greeting makes that an error of the opening.</para>
/// </remarks>
internal sealed class ConnectionOpening
{
    private const int MaxGreetingLine = 256;

    private readonly ServerEndpoint _endpoint;
    private readonly ClientSettings _settings;

    internal ConnectionOpening(ServerEndpoint endpoint, ClientSettings settings)
    {
        _endpoint = endpoint;
        _settings = settings;
    }

    /// <summary>Gets where the attempt is (a <see cref="ConnectionStage"/> value).</summary>
    internal string Stage { get; private set; } = ConnectionStage.Connecting;

    /// <summary>Connects <paramref name="socket"/> and runs the handshake and greeting the settings ask for.</summary>
    /// <returns>The TLS framing over the socket, or null for plaintext.</returns>
    /// <exception cref="System.Net.Sockets.SocketException">The TCP connect failed.</exception>
    /// <exception cref="MemcachedException">TLS or authentication failed, or the server answered nonsense.</exception>
    /// <exception cref="OperationCanceledException"><paramref name="timeout"/> was cancelled.</exception>
    internal TlsFraming? Run(PolledSocket socket, IPEndPoint remote, CancellationToken timeout)
    {
        socket.Connect(remote, timeout);
        TlsSettings? tls = _settings.TlsFor(_endpoint);
        var stream = new PolledSocketStream(socket);
        SslStream? ssl = null;
        try
        {
            if (tls is not null)
            {
                Stage = ConnectionStage.Handshake;
                ssl = Handshake(stream, tls, timeout);
            }

            if (ssl is not null || _settings.Credentials is not null)
            {
                Stage = ConnectionStage.Greeting;
                Greet(ssl ?? (Stream)stream, ssl is not null, timeout);
            }

            socket.Opened();
            return ssl is null ? null : new TlsFraming(ssl, stream);
        }
        catch
        {
            ssl?.Dispose();
            throw;
        }
    }

    private SslStream Handshake(PolledSocketStream socket, TlsSettings tls, CancellationToken timeout)
    {
        SslClientAuthenticationOptions options = tls.ClientOptions(_endpoint, out TlsSettings.CertificateVerdict verdict);
        var ssl = new SslStream(socket, leaveInnerStreamOpen: true);
        try
        {
            ssl.AuthenticateAsClient(options);
            return ssl;
        }
        catch (Exception ex) when (ex is AuthenticationException or IOException && !timeout.IsCancellationRequested)
        {
            ssl.Dispose();
            throw ThrowHelper.TlsHandshakeFailed(_endpoint.Name, "connect",
                verdict.Rejection ?? $"the handshake with '{tls.TargetHostOf(_endpoint)}' failed ({Describe(ex)}); check that the server is started with TLS (memcached -Z) and accepts TLS 1.2 or 1.3", ex);
        }
        catch
        {
            ssl.Dispose();
            timeout.ThrowIfCancellationRequested();
            throw;
        }
    }

    private void Greet(Stream stream, bool tls, CancellationToken timeout)
    {
        Credentials? credentials = _settings.Credentials;
        string reply;
        try
        {
            reply = Ask(stream, "mn\r\n"u8);
        }
        catch (Exception ex) when (tls && ex is IOException or AuthenticationException && !timeout.IsCancellationRequested)
        {
            throw ThrowHelper.TlsHandshakeFailed(_endpoint.Name, "connect",
                $"the server ended the session right after the handshake ({Describe(ex)}); it probably requires a client certificate (memcached -o ssl_verify_mode=2 or 3) that the client did not send or that the server does not trust: set MemcachedClientOptions.Tls.ClientCertificatePath to a certificate issued by the server's ssl_ca_cert", ex);
        }

        if (reply == "MN")
        {
            if (credentials is not null)
            {
                throw ThrowHelper.AuthenticationNotEnabled(_endpoint.Name, "connect", credentials.UserName);
            }

            return;
        }

        if (reply != "CLIENT_ERROR unauthenticated")
        {
            throw ThrowHelper.ProtocolError(_endpoint.Name, "connect", $"\"{reply}\" is not an answer to mn");
        }

        if (credentials is null)
        {
            throw ThrowHelper.AuthenticationRequired(_endpoint.Name, "connect");
        }

        Stage = ConnectionStage.Authenticating;
        int length = credentials.WriteAuthCommand(out byte[] command);
        try
        {
            reply = Ask(stream, command.AsSpan(0, length));
        }
        finally
        {
            CryptographicOperations.ZeroMemory(command.AsSpan(0, length));
            ArrayPool<byte>.Shared.Return(command);
        }

        if (reply != "STORED")
        {
            throw ThrowHelper.AuthenticationFailed(_endpoint.Name, "connect", credentials.UserName, reply);
        }
    }

    /// <summary>Sends one command and reads its one-line reply (nothing else is in flight while the connection opens).</summary>
    private string Ask(Stream stream, ReadOnlySpan<byte> command)
    {
        stream.Write(command);
        Span<byte> line = stackalloc byte[MaxGreetingLine];
        int filled = 0;
        while (true)
        {
            int read = stream.Read(line[filled..]);
            if (read == 0)
            {
                throw new IOException($"{_endpoint.Name} closed the connection");
            }

            filled += read;
            int end = line[..filled].IndexOf("\r\n"u8);
            if (end >= 0)
            {
                if (end + 2 != filled)
                {
                    throw ThrowHelper.ProtocolError(_endpoint.Name, "connect", "more than one line answered one command");
                }

                return Encoding.ASCII.GetString(line[..end]);
            }

            if (filled == line.Length)
            {
                throw ThrowHelper.ProtocolError(_endpoint.Name, "connect", $"an answer longer than {MaxGreetingLine} bytes to a command of the opening");
            }
        }
    }

    /// <summary>An exception and its causes in one line (OpenSSL's reason is usually the innermost).</summary>
    private static string Describe(Exception ex)
    {
        var text = new StringBuilder(ex.Message);
        for (Exception? inner = ex.InnerException; inner is not null; inner = inner.InnerException)
        {
            text.Append(": ").Append(inner.Message);
        }

        return text.ToString();
    }
}
