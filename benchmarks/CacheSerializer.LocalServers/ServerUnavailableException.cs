namespace CacheSerializer.LocalServers;

/// <summary>A local server could not be had: its program is not installed (the message has the install command), or it
/// exited at start, or it was not ready in time. The one failure a harness reports as "server unavailable" (the load
/// test's exit code 3), by its type rather than by its message.</summary>
/// <remarks>An <see cref="InvalidOperationException"/>, as these failures were before they had a type of their own;
/// a port taken at every attempt is one too.</remarks>
public class ServerUnavailableException : InvalidOperationException
{
    /// <summary>Creates the failure.</summary>
    /// <param name="message">What is missing or what went wrong, and how to fix it.</param>
    /// <param name="innerException">The cause, or null.</param>
    public ServerUnavailableException(string message, Exception? innerException = null)
        : base(message, innerException)
    {
    }
}
