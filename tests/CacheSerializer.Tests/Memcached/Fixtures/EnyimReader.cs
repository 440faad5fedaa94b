using CacheSerializer.LocalServers;
using CacheSerializer.Tests.Transcoding;

namespace CacheSerializer.Tests.Memcached.Fixtures;

/// <summary>
/// An old web server's read of an object: EnyimMemcachedCore's <c>GetAsync&lt;T&gt;</c>, rebuilt from its source
/// (cnblogs/EnyimMemcachedCore at e383c4c742190da94007579ccb7377443021a7eb): the binary get of
/// src/Enyim.Caching/Memcached/Protocol/Binary/GetOperation.cs (<see cref="BinaryProtocolReader"/>: any item is a hit),
/// then src/Enyim.Caching/Memcached/Transcoders/DefaultTranscoder.cs, <c>Deserialize&lt;T&gt;</c> of an object type,
/// which reads the bytes as BSON whatever the flags (<see cref="DefaultTranscoderReference.Deserialize"/>): a
/// get-or-create placeholder (0 bytes) is a hit whose value is null, which src/Enyim.Caching/MemcachedClient.cs's
/// <c>GetValueOrCreateAsync</c> returns to the application as it is.
/// </summary>
internal sealed class EnyimReader(string endpoint) : IAsyncDisposable
{
    private readonly BinaryProtocolReader _reader = new(endpoint);

    /// <summary>Reads a key as an old web server does: (false, null) for a miss, (true, value) for a hit, null
    /// included when the item is not a value.</summary>
    public async Task<(bool Success, T? Value)> GetAsync<T>(string key)
        where T : class
    {
        (bool found, _, byte[] data) = await _reader.GetAsync(key);
        return found ? (true, (T?)DefaultTranscoderReference.Deserialize(data, typeof(T))) : (false, null);
    }

    /// <summary>Reads a key over and over until <paramref name="stop"/> is cancelled, recording every hit: what old web
    /// servers see while the new ones work on the key.</summary>
    public async Task<List<T?>> WatchAsync<T>(string key, CancellationToken stop)
        where T : class
    {
        var hits = new List<T?>();
        while (!stop.IsCancellationRequested)
        {
            (bool success, T? value) = await GetAsync<T>(key);
            if (success)
            {
                hits.Add(value);
            }
        }

        return hits;
    }

    public ValueTask DisposeAsync() => _reader.DisposeAsync();
}
