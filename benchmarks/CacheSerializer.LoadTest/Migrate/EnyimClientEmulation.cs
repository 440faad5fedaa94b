using System.Collections.Concurrent;
using CacheSerializer.LoadTest.Checking;
using CacheSerializer.LocalServers;
using CacheSerializer.Memcached;
using CacheSerializer.Workloads.Contenders;
using CacheSerializer.Workloads.Models;

namespace CacheSerializer.LoadTest.Migrate;

/// <summary>
/// An old web server's cache client: EnyimMemcachedCore's <c>MemcachedClient</c>, which cannot be restored here,
/// emulated by this package's client placing keys as EnyimMemcachedCore does (<see cref="KeyPlacement.EnyimMemcachedCore"/>:
/// its DefaultNodeLocator) and storing DefaultTranscoder's exact bytes (the workloads' <see cref="EnyimBsonTranscoder"/>),
/// behind EnyimMemcachedCore's failure behaviour, read in its MemcachedClient.cs (commit e383c4c):
/// </summary>
/// <remarks>
/// <list type="bullet">
/// <item><c>GetAsync&lt;T&gt;</c> catches any exception (a Deserialize one included), logs it, and with
/// <c>SuppressException = true</c> (its default) fails the result, so <c>GetValueAsync&lt;T&gt;</c> returns default: a miss to the application.</item>
/// <item>A store (<c>PerformStoreAsync</c>) catches an exception of Serialize, logs it and returns failure (false).</item>
/// <item><c>RemoveAsync</c> returns the operation's success; its node turns a failed call into a failure.</item>
/// </list>
/// Each such exception is <see cref="CacheReply{T}.Caught"/>, counted as an exception on an old server. This client
/// is therefore set to throw what EnyimMemcachedCore would have caught (<see cref="UnreadableItemPolicy.Throw"/>,
/// <see cref="ServerFailurePolicy.Throw"/>), so that the catch here sees it. Reads are EnyimMemcachedCore's own: the
/// binary protocol's get on the server its placement picks (<see cref="BinaryProtocolReader"/>: every item is a hit, a
/// get-or-create placeholder or an item marked stale included), then DefaultTranscoder's object read of the bytes
/// whatever the flags; a hit whose value is null is <see cref="CacheReply{T}.NotAValue"/>. What differs from
/// EnyimMemcachedCore: its stores and deletes go through the meta protocol (memcached stores the same key, flags and
/// bytes either way), and the reader of BSON instants returns UTC where DefaultTranscoder returns local time (the same
/// instant; the scenario compares instants).
/// </remarks>
internal sealed class EnyimClientEmulation : IWebServerCache
{
    private readonly MemcachedClient _client;
    private readonly ITranscoder _transcoder;
    private readonly ConcurrentDictionary<string, BinaryProtocolReader> _readers = new(StringComparer.Ordinal);

    private EnyimClientEmulation(MemcachedClient client, ITranscoder transcoder)
    {
        _client = client;
        _transcoder = transcoder;
    }

    /// <inheritdoc/>
    public bool Old => true;

    /// <summary>Creates the client of an old web server.</summary>
    /// <param name="endpoints">The memcached servers, as the old application's configuration lists them.</param>
    /// <param name="written">Told every item written (its size and flags), or null.</param>
    /// <param name="wrapTranscoder">Wraps DefaultTranscoder's emulation (tests: one that corrupts what it writes), or null.</param>
    /// <returns>The client.</returns>
    public static EnyimClientEmulation Create(IReadOnlyList<string> endpoints, Action<CacheItem>? written = null, Func<ITranscoder, ITranscoder>? wrapTranscoder = null)
    {
        var defaultTranscoder = new EnyimBsonTranscoder();
        var transcoder = new CheckingTranscoder(wrapTranscoder?.Invoke(defaultTranscoder) ?? defaultTranscoder, written: written);
        var options = new MemcachedClientOptions
        {
            KeyPlacement = KeyPlacement.EnyimMemcachedCore,
            Transcoder = transcoder,
            OnUnreadableItem = UnreadableItemPolicy.Throw,
            OnServerFailure = ServerFailurePolicy.Throw,
        };
        foreach (string endpoint in endpoints)
        {
            options.Servers.Add(endpoint);
        }

        return new EnyimClientEmulation(new MemcachedClient(options), transcoder);
    }

    /// <inheritdoc/>
    public async Task<CacheReply<UserFolderTree?>> GetAsync(string key, CancellationToken cancellationToken)
    {
        try
        {
            string server = _client.GetServerForKey(key);
            (bool found, ushort flags, byte[] data) = await _readers.GetOrAdd(server, static s => new BinaryProtocolReader(s)).GetAsync(key, cancellationToken).ConfigureAwait(false);
            if (!found)
            {
                return new(null, null);
            }

            UserFolderTree? value = _transcoder.Deserialize<UserFolderTree>(new CacheItem(flags, new ArraySegment<byte>(data)));
            return new(value, null, value is null ? $"GetAsync(\"{key}\") read a hit whose value is null (flags 0x{flags:X4}, {data.Length} bytes): not a value" : null, Requests: $"binary get@{server} hit");
        }
        catch (Exception ex) when (!IsStopping(ex, cancellationToken))
        {
            return new(null, Describe("GetAsync", key, ex));
        }
    }

    /// <inheritdoc/>
    public async Task<CacheReply<bool>> SetAsync(string key, UserFolderTree value, CancellationToken cancellationToken)
    {
        var requests = CallProbe.Start();
        try
        {
            MemcachedStoreResult result = await _client.SetAsync(key, value, expiration: null, cancellationToken).ConfigureAwait(false);
            return new(result == MemcachedStoreResult.Stored, null, Requests: $"{result}: {requests}");
        }
        catch (Exception ex) when (!IsStopping(ex, cancellationToken))
        {
            return new(false, Describe("SetAsync", key, ex), Requests: requests.ToString());
        }
    }

    /// <inheritdoc/>
    public async Task<CacheReply<bool>> DeleteAsync(string key, CancellationToken cancellationToken)
    {
        var requests = CallProbe.Start();
        try
        {
            bool deleted = await _client.DeleteAsync(key, cancellationToken).ConfigureAwait(false);
            return new(true, null, Requests: $"answered {deleted}: {requests}");
        }
        catch (Exception ex) when (!IsStopping(ex, cancellationToken))
        {
            return new(false, Describe("RemoveAsync", key, ex), Requests: requests.ToString());
        }
    }

    /// <inheritdoc/>
    public async ValueTask DisposeAsync()
    {
        foreach (BinaryProtocolReader reader in _readers.Values)
        {
            await reader.DisposeAsync().ConfigureAwait(false);
        }

        await _client.DisposeAsync().ConfigureAwait(false);
    }

    private static bool IsStopping(Exception ex, CancellationToken cancellationToken) =>
        ex is OperationCanceledException && cancellationToken.IsCancellationRequested;

    private static string Describe(string call, string key, Exception ex) =>
        $"{call}(\"{key}\") caught {ex.GetType().Name}: {(ex.InnerException is { } inner ? $"{ex.Message} ({inner.GetType().Name}: {inner.Message})" : ex.Message)}";
}
