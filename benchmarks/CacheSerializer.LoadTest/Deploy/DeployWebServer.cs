using CacheSerializer.LoadTest.Checking;
using CacheSerializer.Memcached;

namespace CacheSerializer.LoadTest.Deploy;

/// <summary>
/// One web server of the deploy: one build of the models, its own <see cref="MemcachedClient"/> and transcoder, and its
/// callers running get-or-load on random keys. Deploying it to the next build is <see cref="StopAsync"/> (the process
/// drains its requests and exits) and a new web server of build 2 (a new process, new connections).
/// </summary>
internal sealed class DeployWebServer
{
    private readonly MemcachedClient _client;
    private readonly CancellationTokenSource _stop = new();
    private readonly Task[] _callers;

    private DeployWebServer(MemcachedClient client, Task[] callers)
    {
        _client = client;
        _callers = callers;
    }

    /// <summary>Starts a web server of <paramref name="build"/> with its callers.</summary>
    /// <param name="build">The build it runs.</param>
    /// <param name="other">The other build (a hit equal to its value for the key is counted apart, not as wrong).</param>
    /// <param name="endpoints">The memcached servers.</param>
    /// <param name="keys">The keys; key k's value is made from k.</param>
    /// <param name="tally">The counts.</param>
    /// <param name="callers">The number of callers.</param>
    /// <param name="seed">The seed of the callers' key choices.</param>
    /// <param name="wrapTranscoder">Wraps the build's transcoder (tests), or null.</param>
    /// <returns>The running web server.</returns>
    public static DeployWebServer Start(DeployBuild build, DeployBuild other, IReadOnlyList<string> endpoints, string[] keys, DeployTally tally, int callers, int seed, Func<ITranscoder, ITranscoder>? wrapTranscoder)
    {
        MemcachedClient client = CreateClient(build, endpoints, wrapTranscoder);
        var tasks = new Task[callers];
        var server = new DeployWebServer(client, tasks);
        for (int i = 0; i < callers; i++)
        {
            var random = new Random(HashCode.Combine(seed, i));
            tasks[i] = Task.Run(() => server.CallerLoopAsync(build, other, keys, tally, random), CancellationToken.None);
        }

        return server;
    }

    /// <summary>Creates a client whose transcoder is <paramref name="build"/>'s, which counts what it cannot read; the
    /// client keeps its default OnUnreadableItem = Miss, as the build's web server would.</summary>
    /// <param name="build">The build.</param>
    /// <param name="endpoints">The memcached servers.</param>
    /// <param name="wrapTranscoder">Wraps the build's transcoder (tests: one that corrupts what it writes), or null.</param>
    /// <returns>The client.</returns>
    public static MemcachedClient CreateClient(DeployBuild build, IReadOnlyList<string> endpoints, Func<ITranscoder, ITranscoder>? wrapTranscoder = null)
    {
        ITranscoder transcoder = build.CreateTranscoder();
        var options = new MemcachedClientOptions { Transcoder = new CheckingTranscoder(wrapTranscoder?.Invoke(transcoder) ?? transcoder) };
        foreach (string endpoint in endpoints)
        {
            options.Servers.Add(endpoint);
        }

        return new MemcachedClient(options);
    }

    /// <summary>Stops the callers (each finishes or abandons its request), waits for them, and closes the client.</summary>
    /// <returns>The stop.</returns>
    public async Task StopAsync()
    {
        await _stop.CancelAsync().ConfigureAwait(false);
        await Task.WhenAll(_callers).ConfigureAwait(false);
        await _client.DisposeAsync().ConfigureAwait(false);
        _stop.Dispose();
    }

    /// <summary>One caller: get a random key; on a hit check the value, on a miss call the factory and set its value.</summary>
    private async Task CallerLoopAsync(DeployBuild build, DeployBuild other, string[] keys, DeployTally tally, Random random)
    {
        CancellationToken stop = _stop.Token;
        while (!stop.IsCancellationRequested)
        {
            int k = random.Next(keys.Length);
            DeployPhase phase = tally.Phase;
            try
            {
                // The client reads an item this build cannot read as a miss; its transcoder marks the read's probe.
                var probe = ReadProbe.Start();
                string? value = await build.ReadAsync(_client, keys[k], stop).ConfigureAwait(false);
                if (value is not null)
                {
                    tally.Hit(phase, value != build.Expected(k) && value == other.Expected(k), Check(build, other, keys[k], k, value));
                    continue;
                }

                tally.Miss(phase, probe.Unreadable, $"build {build.Number}, {keys[k]}");
                tally.FactoryCall(phase);
                MemcachedStoreResult stored = await build.WriteAsync(_client, keys[k], k, stop).ConfigureAwait(false);
                if (stored != MemcachedStoreResult.Stored)
                {
                    tally.Error(phase, $"build {build.Number}, set {keys[k]}: {stored}");
                }
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                break;
            }
            catch (Exception ex) when (ex is CacheSerializerException or InvalidOperationException or IOException)
            {
                tally.Error(phase, $"build {build.Number}, {keys[k]}: {ex.GetType().Name}: {ex.Message}");
            }
        }
    }

    /// <summary>A hit is right when it is the value one of the two builds' factories makes for the key.</summary>
    private static string? Check(DeployBuild build, DeployBuild other, string key, int k, string value) =>
        value == build.Expected(k) || value == other.Expected(k) ? null
            : $"build {build.Number}, {key}: read \"{value}\", expected \"{build.Expected(k)}\" (or build {other.Number}'s \"{other.Expected(k)}\")";
}
