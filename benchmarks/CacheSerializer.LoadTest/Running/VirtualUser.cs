using System.Diagnostics;
using CacheSerializer.LoadTest.Checking;
using CacheSerializer.LoadTest.Mix;
using CacheSerializer.Memcached;
using CacheSerializer.Workloads.Generation;

namespace CacheSerializer.LoadTest.Running;

/// <summary>One virtual user: picks a key at random, gets it (and on a miss sets it, as cache-aside code does) or sets it, checks every value it reads.</summary>
/// <param name="client">The pass's client.</param>
/// <param name="mix">The values.</param>
/// <param name="keys">The per-key state of the pass.</param>
/// <param name="counters">Where the figures go.</param>
/// <param name="keyPrefix">The pass's key prefix.</param>
/// <param name="readRatio">The share of operations that start with a get.</param>
/// <param name="seed">This user's own seed: its sequence of keys and choices is the same in every pass.</param>
internal sealed class VirtualUser(MemcachedClient client, ValueMix mix, KeyState[] keys, PassCounters counters, string keyPrefix, double readRatio, ulong seed)
{
    private readonly SeededRandom _random = new(seed);

    /// <summary>Runs until <paramref name="shouldStop"/> says so or the token is cancelled.</summary>
    /// <param name="shouldStop">Asked before every operation; true ends the loop.</param>
    /// <param name="cancellationToken">Ends the loop (Ctrl+C).</param>
    /// <returns>A task that ends with the loop.</returns>
    public async Task RunAsync(Func<bool> shouldStop, CancellationToken cancellationToken)
    {
        while (!cancellationToken.IsCancellationRequested && !shouldStop())
        {
            int index = _random.Next(0, keys.Length);
            bool read = _random.NextDouble() < readRatio;
            int variant = mix.VariantOf(index);
            KeyState state = keys[index];
            ValueShape shape = mix.ShapeOf(index);
            string key = keyPrefix + index.ToString(System.Globalization.CultureInfo.InvariantCulture);

            await state.Gate.WaitAsync(cancellationToken).ConfigureAwait(false);
            try
            {
                if (!read || !await ReadAsync(shape, key, state, cancellationToken).ConfigureAwait(false))
                {
                    await WriteAsync(shape, key, state, variant, cancellationToken).ConfigureAwait(false);
                }
            }
            finally
            {
                state.Gate.Release();
            }
        }
    }

    // Returns whether the key held a value (or the get failed): false means a miss, which the caller follows with a set.
    private async Task<bool> ReadAsync(ValueShape shape, string key, KeyState state, CancellationToken cancellationToken)
    {
        long start = Stopwatch.GetTimestamp();
        bool found;
        object? value;
        var probe = ReadProbe.Start();
        try
        {
            (found, value) = await shape.ReadAsync(client, key, cancellationToken).ConfigureAwait(false);
        }
        catch (MemcachedException ex)
        {
            counters.Error($"get {key}: {ex.Message}");
            return true;
        }

        counters.Got(Microseconds(start), found);
        if (!found)
        {
            // The client reads an item the contender cannot read back as a miss (OnUnreadableItem = Miss, its default,
            // which the passes keep); the pass's transcoder saw it. Nothing in a pass changes a contract, so it is a
            // corruption. Any other miss on a key whose last write was stored is a lost write unless memcached evicted.
            if (probe.Unreadable is { } reason)
            {
                counters.Corruption($"get {key} ({shape.Name}): the stored item could not be read back ({reason}), read as a miss");
            }
            else if (state.LastWriteStored)
            {
                (int lastVariant, int lastStamp) = state.Acceptable[^1];
                counters.Findings.MissOnStoredKey($"get {key} ({shape.Name}): a miss, after variant {lastVariant} stamped {lastStamp} was stored");
            }

            return false;
        }

        if (!state.Written)
        {
            counters.Corruption($"get {key} ({shape.Name}): a value was returned, but nothing was written under this key in this pass");
        }
        else if (!state.Acceptable.Any(a => shape.Matches(value, a.Variant, a.Stamp)))
        {
            (int variant, int stamp) = state.Acceptable[^1];
            counters.Corruption($"get {key} ({shape.Name}): the value differs from variant {variant} stamped {stamp}, the last written ({value?.GetType().Name ?? "null"} read)");
        }

        return true;
    }

    private async Task WriteAsync(ValueShape shape, string key, KeyState state, int variant, CancellationToken cancellationToken)
    {
        int stamp = counters.NextStamp();
        long start = Stopwatch.GetTimestamp();
        try
        {
            MemcachedStoreResult result = await shape.WriteAsync(client, key, variant, stamp, cancellationToken).ConfigureAwait(false);
            if (result == MemcachedStoreResult.Stored)
            {
                counters.Set(Microseconds(start));
                state.Stored(variant, stamp);
            }
            else if (result == MemcachedStoreResult.ServerFailure)
            {
                // The server failed (the client's default policy returns this instead of throwing): the set may have
                // been applied before its connection broke, so a later read may return it.
                counters.Set(Microseconds(start), serverFailure: true);
                state.Uncertain(variant, stamp);
            }
            else
            {
                counters.Set(Microseconds(start));
                counters.Error($"set {key}: {result}");
                state.Uncertain(variant, stamp);
            }
        }
        catch (CacheSerializerException ex)
        {
            // The client's MemcachedException and the transcoder's own both derive from CacheSerializerException.
            counters.Error($"set {key} ({shape.Name}): {ex.Message}");
            state.Uncertain(variant, stamp);
        }
    }

    private static long Microseconds(long start) => (long)Stopwatch.GetElapsedTime(start).TotalMicroseconds;
}
