using System.Globalization;
using System.Text;
using CacheSerializer.Transcoding;

namespace CacheSerializer.Memcached.Internal.Hosting;

/// <summary>
/// EnyimMemcachedCore's <c>IDistributedCache</c> entry, as its <c>MemcachedClient</c> writes it (cnblogs/EnyimMemcachedCore
/// at e383c4c, src/Enyim.Caching/DistributedCache.cs, through DefaultTranscoder): the caller's bytes as they are under
/// DefaultTranscoder's raw flags, and for an entry with a sliding window a companion item under
/// <c>&lt;key&gt;-sliding-expiration</c> holding the window as the string <c>TimeSpan.ToString()</c> gives, stored as
/// DefaultTranscoder stores a string. Its refresh reads the window from the companion (docs/format.md, "IDistributedCache entries").
/// </summary>
internal static class EnyimDistributedEntry
{
    /// <summary>The entry's flags: DefaultTranscoder's <c>RawDataFlag</c>, which every EnyimMemcachedCore transcoder
    /// (Default, MessagePack, BinaryFormatter, DataContract: all derive from DefaultTranscoder) writes a byte[] with.</summary>
    internal const uint Flags = TranscoderFlags.RawBytes;

    /// <summary>The companion key that holds an entry's sliding window (its <c>GetSlidingExpirationKey</c>), as the
    /// caller names it: the client's key rules and placement apply to it as to any key.</summary>
    internal static string CompanionKey(string key) => key + "-sliding-expiration";

    /// <summary>The companion item of a window: UTF-8 under DefaultTranscoder's string flags, the text
    /// <c>TimeSpan.ToString()</c> writes (the invariant "c" format, "00:20:00").</summary>
    internal static CacheItem Companion(TimeSpan window) =>
        new(TranscoderFlags.String, Encoding.UTF8.GetBytes(window.ToString("c", CultureInfo.InvariantCulture)));

    /// <summary>Reads a companion's window as EnyimMemcachedCore's refresh does (<c>Get&lt;string&gt;</c>, then
    /// <c>TimeSpan.TryParse</c>): a string item (DefaultTranscoder also reads flags 0 as one) that parses as a positive
    /// window; anything else is no window, and the entry does not slide.</summary>
    internal static bool TryReadWindow(CacheItem companion, out TimeSpan window)
    {
        window = default;
        return companion.Flags is TranscoderFlags.String or TranscoderFlags.LegacyString
            && TimeSpan.TryParse(Encoding.UTF8.GetString(companion.Data), CultureInfo.InvariantCulture, out window)
            && window > TimeSpan.Zero;
    }
}
