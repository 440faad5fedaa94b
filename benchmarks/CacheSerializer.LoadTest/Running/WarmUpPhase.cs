using System.Diagnostics;
using System.Globalization;
using CacheSerializer.LoadTest.Mix;
using CacheSerializer.Memcached;

namespace CacheSerializer.LoadTest.Running;

/// <summary>
/// The phase before the measured one: every key is stored once (its variant, with a stamp of its own), so the measured
/// phase starts from a warm cache and a short run measures steady state, not the cold misses of a flushed cache.
/// </summary>
/// <remarks>
/// The keys are shared among as many workers as the pass has users. Nothing here counts as an operation of the pass:
/// its latency, counters, memcached's stats and the client's traffic are all taken after it. What it did is reported
/// as <see cref="WarmUpResult"/>.
/// </remarks>
internal static class WarmUpPhase
{
    /// <summary>Stores every key once.</summary>
    /// <param name="client">The pass's client.</param>
    /// <param name="mix">The values.</param>
    /// <param name="keys">The per-key state: each key's stored write is recorded, so the first read is checked.</param>
    /// <param name="counters">The pass's counters (only their stamps are used).</param>
    /// <param name="keyPrefix">The pass's key prefix.</param>
    /// <param name="workers">How many stores run at once.</param>
    /// <param name="cancellationToken">Ctrl+C.</param>
    /// <returns>What the phase did.</returns>
    public static async Task<WarmUpResult> RunAsync(
        MemcachedClient client, ValueMix mix, KeyState[] keys, PassCounters counters, string keyPrefix, int workers, CancellationToken cancellationToken)
    {
        long started = Stopwatch.GetTimestamp();
        int next = -1;
        int stored = 0;
        int failed = 0;
        string? firstFailure = null;

        async Task WorkAsync()
        {
            int index;
            while ((index = Interlocked.Increment(ref next)) < keys.Length && !cancellationToken.IsCancellationRequested)
            {
                int variant = mix.VariantOf(index);
                int stamp = counters.NextStamp();
                string key = keyPrefix + index.ToString(CultureInfo.InvariantCulture);
                try
                {
                    MemcachedStoreResult result = await mix.ShapeOf(index).WriteAsync(client, key, variant, stamp, cancellationToken).ConfigureAwait(false);
                    if (result == MemcachedStoreResult.Stored)
                    {
                        keys[index].Stored(variant, stamp);
                        Interlocked.Increment(ref stored);
                        continue;
                    }

                    Interlocked.CompareExchange(ref firstFailure, $"set {key}: {result}", null);
                }
                catch (CacheSerializerException ex)
                {
                    Interlocked.CompareExchange(ref firstFailure, $"set {key} ({mix.ShapeOf(index).Name}): {ex.Message}", null);
                }

                // It may or may not have reached the server: either value is acceptable to the first read.
                keys[index].Uncertain(variant, stamp);
                Interlocked.Increment(ref failed);
            }
        }

        await Task.WhenAll(Enumerable.Range(0, Math.Max(1, workers)).Select(_ => Task.Run(WorkAsync, CancellationToken.None))).ConfigureAwait(false);
        return new WarmUpResult(stored, failed, Math.Round(Stopwatch.GetElapsedTime(started).TotalSeconds, 3), firstFailure);
    }
}
