using System.Reflection;
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

    /// <summary>The assembly they are in (src/Enyim.Caching/Enyim.Caching.csproj, AssemblyName).</summary>
    private const string AssemblyName = "EnyimMemcachedCore";

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

        int comma = value.IndexOf(',', StringComparison.Ordinal);
        string typeName = comma < 0 ? value : value[..comma];
        string? assembly = comma < 0 ? null : value[(comma + 1)..].Trim();
        string simpleName = assembly?.Split(',')[0].Trim() ?? AssemblyName;
        if (value.Contains('[', StringComparison.Ordinal) || !(simpleName.Equals(AssemblyName, StringComparison.OrdinalIgnoreCase) || IsNamespaceAsAssembly(simpleName) || simpleName.Length == 0))
        {
            // Another assembly's type (or a generic one): it may be a custom transformer that EnyimMemcachedCore loads.
            refuse(setting, $"the key transformer '{value}' cannot be loaded; this package rewrites keys as EnyimMemcachedCore's "
                + "DefaultKeyTransformer, SHA1KeyTransformer and Base64KeyTransformer do (KeyTransformer: None, Sha1, Base64)");
            return;
        }

        // Type.GetType matches the full name exactly (case and spaces included); the assembly part, when there is one,
        // must load EnyimMemcachedCore.
        string className = typeName.StartsWith(Namespace, StringComparison.Ordinal) ? typeName[Namespace.Length..] : string.Empty;
        bool resolves = Transformers.ContainsKey(className) && (assembly is null || LoadsEnyim(assembly));
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
            if (Unresolved(setting.Path, value, typeName, assembly) is { } warning)
            {
                options.BindingWarnings.Add(warning);
            }
        }
    }

    /// <summary>The warning for a name EnyimMemcachedCore's Type.GetType does not resolve, or null when it meant the default anyway.</summary>
    private static string? Unresolved(string path, string value, string typeName, string? assembly)
    {
        string trimmed = typeName.Trim();
        string meant = Transformers.Keys.FirstOrDefault(name => name.Equals(trimmed[(trimmed.LastIndexOf('.') + 1)..], StringComparison.OrdinalIgnoreCase)) ?? string.Empty;
        if (meant == "DefaultKeyTransformer")
        {
            return null;
        }

        string why = assembly is not null && IsNamespaceAsAssembly(assembly.Split(',')[0].Trim())
            ? $"names the assembly Enyim.Caching, which does not exist (EnyimMemcachedCore's transformers are in the assembly {AssemblyName})"
            : assembly is not null && meant.Length > 0 && typeName == Namespace + meant
                ? $"has an assembly part, '{assembly}', from which Type.GetType loads nothing (it takes {AssemblyName}, with no culture but neutral)"
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
        return $"{path}: '{value}' {why}, so EnyimMemcachedCore ignored it and kept keys unchanged (its DefaultKeyTransformer); "
            + $"this client keeps them unchanged too, so both find the same items. {fix}";
    }

    /// <summary>Whether an assembly part is one Type.GetType loads EnyimMemcachedCore for: its simple name in any case, any
    /// version (an application names the version it has; the binder takes any at or below the one loaded), the neutral
    /// culture or none; the public key token is not compared on .NET. A malformed name throws there: nothing loaded.</summary>
    private static bool LoadsEnyim(string assembly)
    {
        try
        {
            var name = new AssemblyName(assembly);
            return AssemblyName.Equals(name.Name, StringComparison.OrdinalIgnoreCase) && string.IsNullOrEmpty(name.CultureName);
        }
        catch (Exception e) when (e is ArgumentException or FileLoadException)
        {
            return false;
        }
    }

    /// <summary>Whether an assembly's simple name is EnyimMemcachedCore's namespace taken for its assembly, which loads nothing.</summary>
    private static bool IsNamespaceAsAssembly(string simpleName) => simpleName.Equals("Enyim.Caching", StringComparison.OrdinalIgnoreCase);
}
