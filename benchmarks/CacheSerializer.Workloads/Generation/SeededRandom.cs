namespace CacheSerializer.Workloads.Generation;

/// <summary>A tiny deterministic generator (SplitMix64) so every contender, every run and every .NET version builds the same graphs.</summary>
/// <remarks>
/// <see cref="System.Random"/> with a seed is not promised to produce the same sequence across .NET versions for all of its
/// methods, and a workload that changed under our feet would make sizes incomparable between runs. SplitMix64
/// (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014) is a few lines of integer
/// arithmetic with a fixed, published output sequence; the range helpers below are our own and equally fixed.
/// Not thread-safe: one instance per generation.
/// </remarks>
public sealed class SeededRandom
{
    private ulong _state;

    /// <summary>Creates a generator from a seed.</summary>
    /// <param name="seed">The seed; the same seed always yields the same sequence.</param>
    public SeededRandom(ulong seed) => _state = seed;

    /// <summary>Returns the next 64 random bits.</summary>
    /// <returns>A value over the whole <see cref="ulong"/> range.</returns>
    public ulong NextUInt64()
    {
        ulong z = _state += 0x9E3779B97F4A7C15UL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        return z ^ (z >> 31);
    }

    /// <summary>Returns a value in [<paramref name="minInclusive"/>, <paramref name="maxExclusive"/>).</summary>
    /// <param name="minInclusive">The smallest value returned.</param>
    /// <param name="maxExclusive">One more than the largest value returned; greater than <paramref name="minInclusive"/>.</param>
    /// <returns>The value.</returns>
    /// <exception cref="ArgumentOutOfRangeException">The range is empty.</exception>
    public int Next(int minInclusive, int maxExclusive)
    {
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(maxExclusive, minInclusive);
        ulong range = (ulong)((long)maxExclusive - minInclusive);
        // The modulo bias is below 2^-32 for the ranges used here and, being deterministic, is the same for every contender.
        return (int)((long)minInclusive + (long)(NextUInt64() % range));
    }

    /// <summary>Returns a value in [<paramref name="minInclusive"/>, <paramref name="maxExclusive"/>).</summary>
    /// <param name="minInclusive">The smallest value returned.</param>
    /// <param name="maxExclusive">One more than the largest value returned; greater than <paramref name="minInclusive"/>.</param>
    /// <returns>The value.</returns>
    /// <exception cref="ArgumentOutOfRangeException">The range is empty.</exception>
    public long NextInt64(long minInclusive, long maxExclusive)
    {
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(maxExclusive, minInclusive);
        ulong range = (ulong)(maxExclusive - minInclusive);
        return minInclusive + (long)(NextUInt64() % range);
    }

    /// <summary>Returns <see langword="true"/> with the given probability.</summary>
    /// <param name="probability">Between 0 and 1.</param>
    /// <returns>The outcome.</returns>
    public bool Chance(double probability) => NextDouble() < probability;

    /// <summary>Returns a value in [0, 1) with 53 random bits.</summary>
    /// <returns>The value.</returns>
    public double NextDouble() => (NextUInt64() >> 11) * (1.0 / (1UL << 53));

    /// <summary>Returns a random value whose magnitude is spread over every bit length from 1 to 64 equally.</summary>
    /// <returns>The value.</returns>
    /// <remarks>
    /// Uniform 64-bit values would all be 10-byte varints and small counters all 1-byte ones; either would favour a
    /// fixed-width or a varint format. Drawing the bit length first gives every length its share.
    /// </remarks>
    public ulong NextUInt64OfRandomLength()
    {
        int bits = Next(1, 65);
        ulong value = NextUInt64() >> (64 - bits);
        return value | (1UL << (bits - 1));
    }

    /// <summary>Returns 16 random bytes as a <see cref="Guid"/>.</summary>
    /// <returns>The value.</returns>
    public Guid NextGuid()
    {
        Span<byte> bytes = stackalloc byte[16];
        BitConverter.TryWriteBytes(bytes, NextUInt64());
        BitConverter.TryWriteBytes(bytes[8..], NextUInt64());
        // Version 4 and RFC 4122 variant bits, as Guid.NewGuid() sets them.
        bytes[7] = (byte)((bytes[7] & 0x0F) | 0x40);
        bytes[8] = (byte)((bytes[8] & 0x3F) | 0x80);
        return new Guid(bytes);
    }

    /// <summary>Returns a UTC instant in [<paramref name="from"/>, <paramref name="to"/>) with millisecond precision.</summary>
    /// <param name="from">The earliest instant.</param>
    /// <param name="to">The end of the range.</param>
    /// <returns>The value, of <see cref="DateTimeKind.Utc"/>.</returns>
    /// <remarks>
    /// Milliseconds, not ticks: BSON's date type is UTC milliseconds, so a tick-precise DateTime cannot round-trip through
    /// the baseline contender at all; database columns and JavaScript clients give millisecond values anyway.
    /// </remarks>
    public DateTime NextUtcMilliseconds(DateTime from, DateTime to)
    {
        long fromMs = from.Ticks / TimeSpan.TicksPerMillisecond;
        long toMs = to.Ticks / TimeSpan.TicksPerMillisecond;
        return new DateTime(NextInt64(fromMs, toMs) * TimeSpan.TicksPerMillisecond, DateTimeKind.Utc);
    }

    /// <summary>Picks one element of a list.</summary>
    /// <typeparam name="T">The element type.</typeparam>
    /// <param name="items">A non-empty list.</param>
    /// <returns>The element.</returns>
    public T Pick<T>(IReadOnlyList<T> items) => items[Next(0, items.Count)];
}
