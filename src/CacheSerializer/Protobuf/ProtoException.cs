namespace CacheSerializer.Protobuf;

/// <summary>
/// The one exception the protobuf engine throws for a type it cannot serialize faithfully, an invalid model, or a payload
/// that is malformed, truncated or hostile.
/// </summary>
/// <remarks>
/// The message names the type, the member or field number and, where there is one, the fix; for bad input,
/// <see cref="Exception.InnerException"/> holds the cause reported by the wire reader.
/// </remarks>
public sealed class ProtoException : CacheSerializerException
{
    /// <summary>Creates an exception with no message.</summary>
    public ProtoException()
    {
    }

    /// <summary>Creates an exception with a message.</summary>
    /// <param name="message">What went wrong and the fix.</param>
    public ProtoException(string message)
        : base(message)
    {
    }

    /// <summary>Creates an exception with a message and its cause.</summary>
    /// <param name="message">What went wrong and the fix.</param>
    /// <param name="innerException">The cause.</param>
    public ProtoException(string message, Exception? innerException)
        : base(message, innerException)
    {
    }
}
