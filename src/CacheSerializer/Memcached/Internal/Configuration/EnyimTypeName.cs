using System.Reflection;

namespace CacheSerializer.Memcached.Internal.Configuration;

/// <summary>
/// A type name from an EnyimMemcachedCore section (<c>KeyTransformer</c>, <c>Transcoder</c>), split as the
/// <c>Type.GetType(name)</c> its MemcachedClientConfiguration calls from its own assembly splits it (cnblogs/EnyimMemcachedCore
/// at e383c4c742190da94007579ccb7377443021a7eb, src/Enyim.Caching/Configuration/MemcachedClientConfiguration.cs): the full
/// name, matched exactly (case and spaces included), and an optional assembly part after the first comma, which must load
/// EnyimMemcachedCore for one of its types to be found.
/// </summary>
internal readonly record struct EnyimTypeName(string Value, string TypeName, string? Assembly)
{
    /// <summary>The assembly EnyimMemcachedCore's types are in (src/Enyim.Caching/Enyim.Caching.csproj, AssemblyName).</summary>
    public const string EnyimAssembly = "EnyimMemcachedCore";

    /// <summary>Splits <paramref name="value"/> into its full name and assembly part.</summary>
    public static EnyimTypeName Parse(string value)
    {
        int comma = value.IndexOf(',', StringComparison.Ordinal);
        return comma < 0 ? new(value, value, null) : new(value, value[..comma], value[(comma + 1)..].Trim());
    }

    /// <summary>Gets a value indicating whether the name is another assembly's type (or a generic one): an application's
    /// own class, which EnyimMemcachedCore loads and this package cannot.</summary>
    public bool IsOtherAssembly
    {
        get
        {
            string simpleName = Assembly?.Split(',')[0].Trim() ?? EnyimAssembly;
            return Value.Contains('[', StringComparison.Ordinal)
                || !(simpleName.Equals(EnyimAssembly, StringComparison.OrdinalIgnoreCase) || IsNamespaceAsAssembly || simpleName.Length == 0);
        }
    }

    /// <summary>Gets a value indicating whether the assembly part names EnyimMemcachedCore's namespace, Enyim.Caching, as
    /// its assembly, which loads nothing.</summary>
    public bool IsNamespaceAsAssembly => Assembly?.Split(',')[0].Trim().Equals("Enyim.Caching", StringComparison.OrdinalIgnoreCase) == true;

    /// <summary>Whether <c>Type.GetType</c> finds EnyimMemcachedCore's type <paramref name="fullName"/> by this name.</summary>
    public bool Finds(string fullName) => TypeName == fullName && (Assembly is null || LoadsEnyim(Assembly));

    /// <summary>The class name, for telling which type a name that finds nothing meant: its last dotted part, trimmed.</summary>
    public string ClassName
    {
        get
        {
            string trimmed = TypeName.Trim();
            return trimmed[(trimmed.LastIndexOf('.') + 1)..];
        }
    }

    /// <summary>Whether an assembly part is one Type.GetType loads EnyimMemcachedCore for: its simple name in any case, any
    /// version (an application names the version it has; the binder takes any at or below the one loaded), the neutral
    /// culture or none; the public key token is not compared on .NET. A malformed name throws there: nothing loaded.</summary>
    private static bool LoadsEnyim(string assembly)
    {
        try
        {
            var name = new AssemblyName(assembly);
            return EnyimAssembly.Equals(name.Name, StringComparison.OrdinalIgnoreCase) && string.IsNullOrEmpty(name.CultureName);
        }
        catch (Exception e) when (e is ArgumentException or FileLoadException)
        {
            return false;
        }
    }
}
