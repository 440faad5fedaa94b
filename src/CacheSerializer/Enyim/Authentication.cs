namespace CacheSerializer.Enyim;

/// <summary>EnyimMemcachedCore's SASL authentication settings; refused at start-up when set (docs/migrating-from-enyim.md, "Authentication").</summary>
public class Authentication
{
    /// <summary>Gets or sets the authenticator's type name.</summary>
    /// <value><see langword="null"/>.</value>
    public string? Type { get; set; }

    /// <summary>Gets or sets the authenticator's parameters (zone, userName, password).</summary>
    /// <value><see langword="null"/>.</value>
    public Dictionary<string, string>? Parameters { get; set; }

    /// <summary>The settings as the section's <c>Authentication</c> keys.</summary>
    internal IEnumerable<KeyValuePair<string, string?>> Settings()
    {
        if (Type is not null)
        {
            yield return new("Authentication:Type", Type);
        }

        foreach ((string key, string value) in Parameters ?? [])
        {
            yield return new($"Authentication:Parameters:{key}", value);
        }
    }
}
