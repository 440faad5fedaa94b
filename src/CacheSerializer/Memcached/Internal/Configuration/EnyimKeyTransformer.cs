using Microsoft.Extensions.Configuration;

namespace CacheSerializer.Memcached.Internal.Configuration;

/// <summary>
/// Binds the <c>KeyTransformer</c> setting of an EnyimMemcachedCore section to what the running EnyimMemcachedCore
/// application really does with it, so that both store the same keys. Its MemcachedClientConfiguration constructor
/// (cnblogs/EnyimMemcachedCore at e383c4c742190da94007579ccb7377443021a7eb, src/Enyim.Caching/Configuration/MemcachedClientConfiguration.cs)
/// calls <c>Type.GetType(options.KeyTransformer)</c> from its own assembly, <c>EnyimMemcachedCore</c>, and keeps its
/// DefaultKeyTransformer (keys unchanged) when that finds nothing, throws (logged, then ignored), or finds a type that is
/// not a transformer. So a short name such as <c>SHA1KeyTransformer</c> changes nothing there; mapping it to SHA-1 here
/// would move every key. A name it would not resolve keeps keys unchanged here too, with a start-up warning.
/// </summary>
internal static class EnyimKeyTransformer
{
    /// <summary>The namespace of EnyimMemcachedCore's transformers (src/Enyim.Caching/Memcached/KeyTransformers/).</summary>
    private const string Namespace = "Enyim.Caching.Memcached.";

    /// <summary>EnyimMemcachedCore's key transformers by class name; null for the one this package does not offer.</summary>
    private static readonly Dictionary<string, MemcachedKeyTransformer?> Transformers = new(StringComparer.Ordinal)
    {
        ["DefaultKeyTransformer"] = MemcachedKeyTransformer.None,
        ["SHA1KeyTransformer"] = MemcachedKeyTransformer.Sha1,
        ["Base64KeyTransformer"] = MemcachedKeyTransformer.Base64,
        ["TigerHashKeyTransformer"] = null,
    };

    /// <summary>Sets <see cref="MemcachedClientOptions.KeyTransformer"/> from the setting as EnyimMemcachedCore resolves
    /// it; adds a warning when the setting had no effect there, and refuses what cannot be matched.</summary>
    public static void Bind(IConfigurationSection setting, MemcachedClientOptions options, Action<IConfigurationSection, string> refuse)
    {
        string? value = setting.Value;
        if (string.IsNullOrWhiteSpace(value))
        {
            return; // Nothing set, or a name Type.GetType finds nothing for: DefaultKeyTransformer either way, as intended.
        }

        var name = EnyimTypeName.Parse(value);
        if (name.IsOtherAssembly)
        {
            // Another assembly's type (or a generic one): it may be a custom transformer that EnyimMemcachedCore loads.
            refuse(setting, $"the key transformer '{value}' cannot be loaded; this package rewrites keys as EnyimMemcachedCore's "
                + "DefaultKeyTransformer, SHA1KeyTransformer and Base64KeyTransformer do (KeyTransformer: None, Sha1, Base64)");
            return;
        }

        string className = name.TypeName.StartsWith(Namespace, StringComparison.Ordinal) ? name.TypeName[Namespace.Length..] : string.Empty;
        bool resolves = Transformers.ContainsKey(className) && name.Finds(Namespace + className);
        if (resolves && Transformers[className] is { } transformer)
        {
            options.KeyTransformer = transformer;
        }
        else if (resolves)
        {
            refuse(setting, "TigerHashKeyTransformer is not offered; its keys cannot be found by this package. Switch the "
                + "EnyimMemcachedCore application to SHA1KeyTransformer first (a one-time cold cache), then migrate");
        }
        else
        {
            options.KeyTransformer = MemcachedKeyTransformer.None;
            if (Unresolved(setting.Path, name) is { } warning)
            {
                options.BindingWarnings.Add(warning);
            }
        }
    }

    /// <summary>The warning for a name EnyimMemcachedCore's Type.GetType does not resolve, or null when it meant the default anyway.</summary>
    private static string? Unresolved(string path, EnyimTypeName name)
    {
        string meant = Transformers.Keys.FirstOrDefault(known => known.Equals(name.ClassName, StringComparison.OrdinalIgnoreCase)) ?? string.Empty;
        if (meant == "DefaultKeyTransformer")
        {
            return null;
        }

        string why = name.IsNamespaceAsAssembly
            ? $"names the assembly Enyim.Caching, which does not exist (EnyimMemcachedCore's transformers are in the assembly {EnyimTypeName.EnyimAssembly})"
            : name.Assembly is not null && meant.Length > 0 && name.TypeName == Namespace + meant
                ? $"has an assembly part, '{name.Assembly}', from which Type.GetType loads nothing (it takes {EnyimTypeName.EnyimAssembly}, with no culture but neutral)"
                : meant.Length > 0
                    ? $"is not a type Type.GetType finds (it takes the exact full name, {Namespace}{meant})"
                    : "is not one of EnyimMemcachedCore's key transformers, nor a type Type.GetType finds from its assembly";
        string fix = meant switch
        {
            "TigerHashKeyTransformer" => "TigerHashKeyTransformer is not offered by this package; remove the setting",
            "" => $"To transform keys, write \"{Namespace}SHA1KeyTransformer\" or \"{Namespace}Base64KeyTransformer\" in every application's "
                + "setting at once (that re-keys the whole cache: every entry is missed once); else remove the setting",
            _ => $"To really use {meant}, write \"{Namespace}{meant}\" in every application's setting at once (that re-keys the whole "
                + "cache: every entry is missed once); else remove the setting",
        };
        return $"{path}: '{name.Value}' {why}, so EnyimMemcachedCore ignored it and kept keys unchanged (its DefaultKeyTransformer); "
            + $"this client keeps them unchanged too, so both find the same items. {fix}";
    }
}
