using CacheSerializer.Transcoding.Codecs.Legacy;
using Microsoft.Extensions.Configuration;

namespace CacheSerializer.Memcached.Internal.Configuration;

/// <summary>
/// The EnyimMemcachedCore transcoder an application's <c>Transcoder</c> setting really gives it, so this client reads and
/// writes that transcoder's objects (flags 0x0101). Its MemcachedClientConfiguration constructor (cnblogs/EnyimMemcachedCore
/// at e383c4c742190da94007579ccb7377443021a7eb, src/Enyim.Caching/Configuration/MemcachedClientConfiguration.cs) turns the
/// exact short names <c>BinaryFormatterTranscoder</c> and <c>MessagePackTranscoder</c> into their full names, then calls
/// <c>Type.GetType</c> from its own assembly: a name that finds nothing (another case, the short name of
/// DefaultTranscoder or DataContractTranscoder, a wrong namespace) keeps a <c>new DefaultTranscoder()</c>; a type of the
/// application's own assembly is loaded and used.
/// </summary>
internal enum EnyimTranscoder
{
    /// <summary>DefaultTranscoder (and DataContractTranscoder, whose bytes are DefaultTranscoder's): BSON objects.</summary>
    Default,

    /// <summary>MessagePackTranscoder: MessagePack objects, read and written by the compatibility package.</summary>
    MessagePack,

    /// <summary>BinaryFormatterTranscoder: BinaryFormatter objects, inside the BinaryFormatter allowlist.</summary>
    BinaryFormatter,
}

/// <summary>Binds the <c>Transcoder</c> setting of an EnyimMemcachedCore section to <see cref="MemcachedClientOptions.EnyimTranscoder"/>.</summary>
internal static class EnyimTranscoderSetting
{
    private const string Namespace = "Enyim.Caching.Memcached.";

    /// <summary>EnyimMemcachedCore's transcoders by the full name Type.GetType finds them by (DefaultTranscoder and
    /// DataContractTranscoder are in Enyim.Caching.Memcached, the other two in its Transcoders namespace).</summary>
    private static readonly Dictionary<string, EnyimTranscoder> Transcoders = new(StringComparer.Ordinal)
    {
        [Namespace + "DefaultTranscoder"] = EnyimTranscoder.Default,
        [Namespace + "DataContractTranscoder"] = EnyimTranscoder.Default,
        [Namespace + "Transcoders.BinaryFormatterTranscoder"] = EnyimTranscoder.BinaryFormatter,
        [Namespace + "Transcoders.MessagePackTranscoder"] = EnyimTranscoder.MessagePack,
    };

    /// <summary>Sets <see cref="MemcachedClientOptions.EnyimTranscoder"/> from the setting as EnyimMemcachedCore resolves
    /// it; adds a warning when the name found nothing there, and refuses an application's own transcoder.</summary>
    public static void Bind(IConfigurationSection setting, MemcachedClientOptions options, Action<IConfigurationSection, string> refuse)
    {
        string? value = setting.Value;
        options.EnyimTranscoder = EnyimTranscoder.Default;
        options.EnyimTranscoderNamed = !string.IsNullOrEmpty(value);
        if (string.IsNullOrEmpty(value))
        {
            return;
        }

        // Its two short names, compared exactly (nameof, ordinal), before Type.GetType.
        var name = EnyimTypeName.Parse(value is "BinaryFormatterTranscoder" or "MessagePackTranscoder" ? Namespace + "Transcoders." + value : value);
        if (name.IsOtherAssembly)
        {
            refuse(setting, $"'{value}' is an application's own transcoder, whose items only its own code reads; this package reads and writes "
                + "EnyimMemcachedCore's DefaultTranscoder, DataContractTranscoder, MessagePackTranscoder and BinaryFormatterTranscoder items. "
                + "Switch the EnyimMemcachedCore applications to one of those first, or remove the setting and accept that the cache starts "
                + "cold (docs/migrating-from-enyim.md, \"Transcoders\")");
            return;
        }

        if (Transcoders.FirstOrDefault(known => name.Finds(known.Key)) is { Key: not null } found)
        {
            options.EnyimTranscoder = found.Value;
            return;
        }

        string meant = Transcoders.Keys.FirstOrDefault(known => known[(known.LastIndexOf('.') + 1)..].Equals(name.ClassName, StringComparison.OrdinalIgnoreCase)) ?? string.Empty;
        if (meant.EndsWith(".DefaultTranscoder", StringComparison.Ordinal) || meant.EndsWith(".DataContractTranscoder", StringComparison.Ordinal))
        {
            return; // A name that finds nothing keeps DefaultTranscoder, which is what it meant (DataContractTranscoder writes the same bytes).
        }

        string fix = meant.Length > 0
            ? $"To really use {meant[(meant.LastIndexOf('.') + 1)..]}, write \"{meant[(meant.LastIndexOf('.') + 1)..]}\" (or \"{meant}\") in every application's setting at once "
                + "(their objects then change format: every cached object is missed once); else remove the setting"
            : "Remove the setting, or name one of EnyimMemcachedCore's transcoders exactly";
        options.BindingWarnings.Add($"{setting.Path}: '{value}' is not a type EnyimMemcachedCore's Type.GetType finds, so it ignored it and kept its "
            + $"DefaultTranscoder; this client reads and writes DefaultTranscoder's objects too, so both read each other's items. {fix}");
    }

    /// <summary>
    /// Sets the codec of the old application's objects on <paramref name="transcoder"/>, the options the client's
    /// transcoder is built from, or adds the problem that keeps it from being built: MessagePackTranscoder without the
    /// compatibility package, BinaryFormatterTranscoder without the BinaryFormatter opt-in.
    /// </summary>
    /// <param name="options">The client's options, bound from the section.</param>
    /// <param name="transcoder">The transcoder's options, bound from the section's transcoder subsection.</param>
    /// <param name="path">The section's path, for the problem's text.</param>
    public static void Apply(MemcachedClientOptions options, ProtobufTranscoderOptions transcoder, string path)
    {
        string setting = path.Length == 0 ? "Transcoder" : $"{path}:Transcoder";
        switch (options.EnyimTranscoder)
        {
            case EnyimTranscoder.MessagePack when options.MessagePackObjects is null:
                options.BindingProblems.Add(new MemcachedConfigurationException("Transcoder", $"{setting}: MessagePackTranscoder's objects are MessagePack, "
                    + "which the core package does not read or write. Add the compatibility package, CacheSerializer.Enyim, and register the client "
                    + "with services.AddEnyimMemcached(...) (the same section) in place of services.AddMemcached(...) (docs/migrating-from-enyim.md, \"Transcoders\")"));
                break;
            case EnyimTranscoder.MessagePack:
                transcoder.EnyimObjects = options.MessagePackObjects;
                break;
            case EnyimTranscoder.BinaryFormatter when transcoder.BinaryFormatterFallbackTypes.Count == 0:
                options.BindingProblems.Add(new MemcachedConfigurationException("Transcoder", $"{setting}: BinaryFormatterTranscoder's objects are BinaryFormatter "
                    + "streams, which this package reads and writes only for the types an application lists, since a stream can name any type to create. "
                    + $"List every cached object type (with the types of its fields) in {TranscoderTypesSetting(path)} as assembly-qualified names, reference "
                    + "System.Runtime.Serialization.Formatters and set <EnableUnsafeBinaryFormatterSerialization>true</EnableUnsafeBinaryFormatterSerialization> "
                    + "in the application's project; or remove the setting on every application at once (their cached objects are missed once) "
                    + "(docs/migrating-from-enyim.md, \"Transcoders\")"));
                break;
            case EnyimTranscoder.BinaryFormatter:
                transcoder.EnyimObjects = new EnyimBinaryFormatterCodec(transcoder.BinaryFormatterFallbackTypes);
                break;
            default:
                break; // DefaultTranscoder's BSON: the transcoder's own default.
        }
    }

    private static string TranscoderTypesSetting(string path) =>
        $"{(path.Length == 0 ? string.Empty : path + ":")}{Microsoft.Extensions.DependencyInjection.MemcachedServiceCollectionExtensions.TranscoderSectionName}:{nameof(ProtobufTranscoderOptions.BinaryFormatterFallbackTypes)}";
}
