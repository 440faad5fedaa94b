using Microsoft.Extensions.Configuration;

namespace CacheSerializer.Memcached.Internal.Configuration;

/// <summary>
/// Binds <c>ProtobufTranscoder:BinaryFormatterFallbackTypes</c>, the BinaryFormatter allowlist, from configuration: an
/// array of assembly-qualified type names. The configuration binder leaves a collection of <see cref="Type"/> empty
/// without a word, which would turn the opt-in silently off; each name is resolved here instead, and one that loads
/// nothing is a start-up problem naming its path. The names come from the application's own configuration, never from
/// a cached payload.
/// </summary>
internal static class FallbackTypesSetting
{
    /// <summary>Adds the types <paramref name="transcoderSection"/> lists to <paramref name="transcoder"/>'s allowlist.</summary>
    public static void Bind(IConfigurationSection transcoderSection, ProtobufTranscoderOptions transcoder, List<MemcachedConfigurationException> problems)
    {
        foreach (IConfigurationSection entry in transcoderSection.GetSection(nameof(ProtobufTranscoderOptions.BinaryFormatterFallbackTypes)).GetChildren())
        {
            Type? type = null;
            try
            {
                type = string.IsNullOrWhiteSpace(entry.Value) ? null : Type.GetType(entry.Value, throwOnError: false);
            }
            catch (Exception e) when (e is ArgumentException or IOException or BadImageFormatException)
            {
                // A malformed name, or an assembly that cannot be loaded: nothing found, reported below.
            }

            if (type is null)
            {
                problems.Add(new MemcachedConfigurationException(
                    nameof(ProtobufTranscoderOptions.BinaryFormatterFallbackTypes),
                    $"{entry.Path}: '{entry.Value}' loads no type; write the type's assembly-qualified name (\"MyApp.Cart, MyApp\")."));
            }
            else
            {
                transcoder.BinaryFormatterFallbackTypes.Add(type);
            }
        }
    }
}
