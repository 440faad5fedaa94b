namespace CacheSerializer;

/// <summary>The root of every exception the CacheSerializer package throws on purpose.</summary>
/// <remarks>
/// Catch this type to handle every failure of the package; the derived types (protobuf engine, memcached client,
/// transcoder) carry what the caller needs to act (the type, the server, the operation), and <see cref="Exception.InnerException"/>
/// carries the cause.
/// </remarks>
public class CacheSerializerException : Exception
{
    /// <summary>Creates an exception with no message.</summary>
    public CacheSerializerException()
    {
    }

    /// <summary>Creates an exception with a message.</summary>
    /// <param name="message">What went wrong and, where there is one, the fix.</param>
    public CacheSerializerException(string message)
        : base(message)
    {
    }

    /// <summary>Creates an exception with a message and its cause.</summary>
    /// <param name="message">What went wrong and, where there is one, the fix.</param>
    /// <param name="innerException">The cause.</param>
    public CacheSerializerException(string message, Exception? innerException)
        : base(message, innerException)
    {
    }
}
