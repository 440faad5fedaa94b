using System.Net;
using System.Net.Sockets;
using System.Text;

namespace CacheSerializer.Tests.Memcached.Fixtures;

/// <summary>A loopback listener that misbehaves on purpose (after Npgsql's PgPostmasterMock): it accepts connections
/// and then never answers, answers late, or answers with another request's opaque.</summary>
public sealed class FakeMemcachedServer : IDisposable
{
    private readonly TcpListener _listener;
    private readonly CancellationTokenSource _stop = new();
    private readonly List<Socket> _accepted = [];
    private readonly Behaviour _behaviour;
    private readonly TimeSpan _delay;
    private readonly long _declaredLength;
    private int _closedByClient;
    private int _lines;

    private FakeMemcachedServer(Behaviour behaviour, TimeSpan delay, long declaredLength = 0)
    {
        _behaviour = behaviour;
        _delay = delay;
        _declaredLength = declaredLength;
        _listener = new TcpListener(IPAddress.Loopback, 0);
        _listener.Start();
        _ = AcceptLoopAsync();
    }

    private enum Behaviour
    {
        NeverAnswer,
        AnswerMissLate,
        WrongOpaque,
        AnswerTwice,
        ServerError,
        HugeValue,
        ResetOnRequest,
    }

    /// <summary>Gets the server as <c>127.0.0.1:port</c>.</summary>
    public string Endpoint => $"127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}";

    /// <summary>Gets how many connections were accepted.</summary>
    public int Accepted
    {
        get
        {
            lock (_accepted)
            {
                return _accepted.Count;
            }
        }
    }

    /// <summary>Gets how many accepted connections the client has closed (or reset): a test waits for this, not for a
    /// fixed time, to know the client threw a connection away.</summary>
    public int ClosedByClient => Volatile.Read(ref _closedByClient);

    /// <summary>Gets how many lines (requests and data blocks) have arrived on all connections: a test waits for this to
    /// know requests were written.</summary>
    public int LinesReceived => Volatile.Read(ref _lines);

    /// <summary>Accepts connections and reads requests, but never writes a byte.</summary>
    public static FakeMemcachedServer NeverAnswering() => new(Behaviour.NeverAnswer, TimeSpan.Zero);

    /// <summary>Answers every request line with a miss (<c>EN O&lt;opaque&gt;</c>), each <paramref name="delay"/> after it arrived, one at a time.</summary>
    public static FakeMemcachedServer AnsweringMissAfter(TimeSpan delay) => new(Behaviour.AnswerMissLate, delay);

    /// <summary>Answers every request with a miss carrying an opaque no request used.</summary>
    public static FakeMemcachedServer AnsweringWithWrongOpaque() => new(Behaviour.WrongOpaque, TimeSpan.Zero);

    /// <summary>Answers every request with a miss, twice: the second copy arrives with no request waiting for it.</summary>
    public static FakeMemcachedServer AnsweringTwice() => new(Behaviour.AnswerTwice, TimeSpan.Zero);

    /// <summary>Answers every command with <c>SERVER_ERROR test failure</c> (and <c>mn</c> with <c>MN</c>), skipping data blocks.</summary>
    public static FakeMemcachedServer AnsweringServerError() => new(Behaviour.ServerError, TimeSpan.Zero);

    /// <summary>Answers every request with a hit whose header declares a value of <paramref name="length"/> bytes, followed
    /// by 64 KiB of the value and then nothing: a reply no real memcached sends (its item size limit is at most 1 GiB and
    /// it sends what it declares).</summary>
    public static FakeMemcachedServer DeclaringValueOf(long length) => new(Behaviour.HugeValue, TimeSpan.Zero, length);

    /// <summary>Resets every connection as soon as a request arrives, before answering anything: what memcached -Z does to
    /// a plaintext client.</summary>
    public static FakeMemcachedServer ResettingOnRequest() => new(Behaviour.ResetOnRequest, TimeSpan.Zero);

    /// <summary>Stops listening and closes every accepted connection.</summary>
    public void Dispose()
    {
        _stop.Cancel();
        _listener.Stop();
        lock (_accepted)
        {
            foreach (Socket socket in _accepted)
            {
                socket.Dispose();
            }
        }

        _stop.Dispose();
    }

    private async Task AcceptLoopAsync()
    {
        try
        {
            while (!_stop.IsCancellationRequested)
            {
                Socket socket = await _listener.AcceptSocketAsync(_stop.Token);
                lock (_accepted)
                {
                    _accepted.Add(socket);
                }

                _ = ServeAsync(socket);
            }
        }
        catch (Exception ex) when (ex is OperationCanceledException or ObjectDisposedException or SocketException)
        {
        }
    }

    private async Task ServeAsync(Socket socket)
    {
        byte[] buffer = new byte[64 * 1024];
        var pending = new StringBuilder();
        bool skipDataLine = false;
        try
        {
            while (!_stop.IsCancellationRequested)
            {
                int read = await socket.ReceiveAsync(buffer, SocketFlags.None, _stop.Token);
                if (read == 0)
                {
                    Interlocked.Increment(ref _closedByClient);
                    return;
                }

                Interlocked.Add(ref _lines, buffer.AsSpan(0, read).Count((byte)'\n'));

                if (_behaviour == Behaviour.NeverAnswer)
                {
                    continue;
                }

                if (_behaviour == Behaviour.ResetOnRequest)
                {
                    socket.LingerState = new LingerOption(true, 0); // an RST, not a FIN
                    socket.Close();
                    return;
                }

                pending.Append(Encoding.ASCII.GetString(buffer, 0, read));
                string text = pending.ToString();
                int end;
                while ((end = text.IndexOf("\r\n", StringComparison.Ordinal)) >= 0)
                {
                    string line = text[..end];
                    text = text[(end + 2)..];
                    if (_behaviour == Behaviour.ServerError)
                    {
                        if (skipDataLine)
                        {
                            skipDataLine = false;
                            continue;
                        }

                        skipDataLine = line.StartsWith("ms ", StringComparison.Ordinal);
                        string answer = line == "mn" ? "MN\r\n" : "SERVER_ERROR test failure\r\n";
                        await socket.SendAsync(Encoding.ASCII.GetBytes(answer), SocketFlags.None, _stop.Token);
                        continue;
                    }

                    string opaque = line.Split(' ').FirstOrDefault(t => t.StartsWith('O')) ?? "O0";
                    if (_behaviour == Behaviour.HugeValue)
                    {
                        await socket.SendAsync(Encoding.ASCII.GetBytes($"VA {_declaredLength} f0 {opaque}\r\n"), SocketFlags.None, _stop.Token);
                        await socket.SendAsync(new byte[64 * 1024], SocketFlags.None, _stop.Token);
                    }
                    else if (_behaviour == Behaviour.AnswerMissLate)
                    {
                        await Task.Delay(_delay, _stop.Token);
                        await socket.SendAsync(Encoding.ASCII.GetBytes($"EN {opaque}\r\n"), SocketFlags.None, _stop.Token);
                    }
                    else if (_behaviour == Behaviour.AnswerTwice)
                    {
                        await socket.SendAsync(Encoding.ASCII.GetBytes($"EN {opaque}\r\n"), SocketFlags.None, _stop.Token);
                        await Task.Delay(50, _stop.Token);
                        await socket.SendAsync(Encoding.ASCII.GetBytes($"EN {opaque}\r\n"), SocketFlags.None, _stop.Token);
                    }
                    else
                    {
                        await socket.SendAsync(Encoding.ASCII.GetBytes("EN O999999\r\n"), SocketFlags.None, _stop.Token);
                    }
                }

                pending.Clear().Append(text);
            }
        }
        catch (SocketException) when (!_stop.IsCancellationRequested)
        {
            Interlocked.Increment(ref _closedByClient); // reset by the client
        }
        catch (Exception ex) when (ex is OperationCanceledException or ObjectDisposedException or SocketException)
        {
        }
    }
}
