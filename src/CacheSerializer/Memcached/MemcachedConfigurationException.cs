namespace CacheSerializer.Memcached;

/// <summary>A <see cref="MemcachedClientOptions"/> property has a value the client cannot run with.</summary>
public sealed class MemcachedConfigurationException : CacheSerializerException
{
    /// <summary>Creates an exception with no details (for serializers and tooling).</summary>
    public MemcachedConfigurationException()
    {
        PropertyName = string.Empty;
    }

    /// <summary>Creates an exception with a message (for tooling).</summary>
    /// <param name="message">What went wrong.</param>
    public MemcachedConfigurationException(string message)
        : base(message)
    {
        PropertyName = string.Empty;
    }

    /// <summary>Creates an exception with a message and its cause (for tooling).</summary>
    /// <param name="message">What went wrong.</param>
    /// <param name="innerException">The cause.</param>
    public MemcachedConfigurationException(string message, Exception? innerException)
        : base(message, innerException)
    {
        PropertyName = string.Empty;
    }

    /// <summary>Creates an exception naming the offending property.</summary>
    /// <param name="propertyName">The name of the <see cref="MemcachedClientOptions"/> property.</param>
    /// <param name="message">What is wrong with its value and what is allowed.</param>
    /// <param name="innerException">The cause, if any.</param>
    public MemcachedConfigurationException(string propertyName, string message, Exception? innerException = null)
        : base(message, innerException)
    {
        PropertyName = propertyName;
    }

    /// <summary>Gets the name of the offending <see cref="MemcachedClientOptions"/> property.</summary>
    public string PropertyName { get; }
}
