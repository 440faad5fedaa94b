namespace CacheSerializer.Enyim;

/// <summary>A server of <see cref="MemcachedClientOptions.Servers"/>, as EnyimMemcachedCore's <c>Server</c>.</summary>
public class Server
{
    /// <summary>Gets or sets the server's host name or IP address.</summary>
    /// <value><see langword="null"/>; required.</value>
    public string? Address { get; set; }

    /// <summary>Gets or sets the server's port.</summary>
    /// <value>0; required (1-65535).</value>
    public int Port { get; set; }
}
