namespace CacheSerializer.Memcached.Internal.Protocol;

/// <summary>Thrown by the reply parsers when bytes are not the reply expected; the connection turns it into a break.</summary>
internal sealed class ProtocolViolationException : Exception
{
    public ProtocolViolationException()
    {
    }

    public ProtocolViolationException(string message)
        : base(message)
    {
    }

    public ProtocolViolationException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
