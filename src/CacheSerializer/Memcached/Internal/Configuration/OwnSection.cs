using System.Reflection;
using Microsoft.Extensions.Configuration;

namespace CacheSerializer.Memcached.Internal.Configuration;

/// <summary>
/// Refuses the keys of the package's own configuration section that bind to nothing (a misspelt setting, a transcoder
/// setting outside its <c>ProtobufTranscoder</c> subsection), which the configuration binder would silently ignore:
/// each becomes a start-up problem naming its path and where it belongs, reported with every other problem.
/// </summary>
internal static class OwnSection
{
    /// <summary>The subsections with settings of their own, by the type whose properties they bind to.</summary>
    private static readonly HashSet<Type> Nested = [typeof(GetOrCreateOptions), typeof(MemcachedTlsOptions)];

    /// <summary>Adds a problem for each key of <paramref name="section"/> (and of its subsections) that is no setting.</summary>
    /// <param name="section">The client's section.</param>
    /// <param name="transcoderSection">The name of the transcoder's subsection.</param>
    /// <param name="problems">Where the problems go (reported at start-up with the options' own).</param>
    internal static void FindUnknownKeys(IConfiguration section, string transcoderSection, List<MemcachedConfigurationException> problems)
    {
        foreach (IConfigurationSection setting in section.GetChildren())
        {
            if (setting.Key.Equals(transcoderSection, StringComparison.OrdinalIgnoreCase))
            {
                CheckKeys(setting, typeof(ProtobufTranscoderOptions), problems);
            }
            else if (Find(typeof(MemcachedClientOptions), setting.Key) is not { } property || property.Name == nameof(MemcachedClientOptions.Transcoder))
            {
                string where = Find(typeof(ProtobufTranscoderOptions), setting.Key) is { } transcoderSetting
                    ? $"it is a setting of the transcoder: move it into the {transcoderSection} subsection ({Parent(setting)}{transcoderSection}:{transcoderSetting.Name})"
                    : "the settings are listed in docs/client.md, \"Options\"";
                problems.Add(Unknown(setting, "is not a setting of MemcachedClientOptions", where));
            }
            else if (Nested.Contains(property.PropertyType))
            {
                CheckKeys(setting, property.PropertyType, problems);
            }
        }
    }

    private static void CheckKeys(IConfigurationSection section, Type options, List<MemcachedConfigurationException> problems)
    {
        foreach (IConfigurationSection setting in section.GetChildren())
        {
            if (Find(options, setting.Key) is null)
            {
                problems.Add(Unknown(setting, $"is not a setting of {options.Name}", $"see {options.Name}'s properties for the settings"));
            }
        }
    }

    private static PropertyInfo? Find(Type options, string key) =>
        options.GetProperty(key, BindingFlags.Public | BindingFlags.Instance | BindingFlags.IgnoreCase);

    private static string Parent(IConfigurationSection setting) =>
        setting.Path.Length > setting.Key.Length ? setting.Path[..^setting.Key.Length] : string.Empty;

    private static MemcachedConfigurationException Unknown(IConfigurationSection setting, string what, string where) =>
        new(setting.Key, $"{setting.Path}: {what}, so its value would be ignored; {where}.");
}
