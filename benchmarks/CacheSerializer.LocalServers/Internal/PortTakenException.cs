namespace CacheSerializer.LocalServers.Internal;

/// <summary>A server could not bind the port chosen for it (another process took it meanwhile): the launcher tries another.</summary>
internal sealed class PortTakenException(string message) : ServerUnavailableException(message);
