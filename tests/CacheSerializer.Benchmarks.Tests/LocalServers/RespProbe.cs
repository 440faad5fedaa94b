using System.Net;
using System.Net.Sockets;
using System.Text;

namespace CacheSerializer.Benchmarks.Tests.LocalServers;

/// <summary>Sends one command to a redis-server in RESP and returns its reply exactly as it came (one whole reply,
/// nested arrays included), so tests can assert the server's own bytes without a client library in between.</summary>
internal static class RespProbe
{
    /// <summary>Sends <paramref name="command"/> to 127.0.0.1:<paramref name="port"/> and returns the raw reply.</summary>
    public static string Send(int port, params string[] command)
    {
        using var client = new TcpClient { ReceiveTimeout = 10_000, SendTimeout = 10_000 };
        client.Connect(IPAddress.Loopback, port);
        NetworkStream stream = client.GetStream();
        StringBuilder request = new StringBuilder().Append('*').Append(command.Length).Append("\r\n");
        foreach (string part in command)
        {
            request.Append('$').Append(Encoding.UTF8.GetByteCount(part)).Append("\r\n").Append(part).Append("\r\n");
        }

        stream.Write(Encoding.UTF8.GetBytes(request.ToString()));
        var reply = new StringBuilder();
        ReadReply(stream, reply);
        return reply.ToString();
    }

    private static void ReadReply(NetworkStream stream, StringBuilder reply)
    {
        string line = ReadLine(stream);
        reply.Append(line).Append("\r\n");
        switch (line[0])
        {
            case '$':
                int length = int.Parse(line[1..], System.Globalization.CultureInfo.InvariantCulture);
                if (length >= 0)
                {
                    byte[] body = new byte[length + 2];
                    stream.ReadExactly(body);
                    reply.Append(Encoding.UTF8.GetString(body));
                }

                break;
            case '*':
                int count = int.Parse(line[1..], System.Globalization.CultureInfo.InvariantCulture);
                for (int i = 0; i < count; i++)
                {
                    ReadReply(stream, reply);
                }

                break;
        }
    }

    private static string ReadLine(NetworkStream stream)
    {
        var line = new StringBuilder();
        while (true)
        {
            int b = stream.ReadByte();
            if (b < 0)
            {
                throw new IOException($"the connection closed after \"{line}\"");
            }

            if (b == '\n' && line.Length > 0 && line[^1] == '\r')
            {
                return line.ToString(0, line.Length - 1);
            }

            line.Append((char)b);
        }
    }
}
