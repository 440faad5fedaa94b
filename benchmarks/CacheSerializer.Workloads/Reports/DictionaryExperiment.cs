using System.Globalization;
using System.Text;
using CacheSerializer.Workloads.Generation;
using ZstdSharp;
using ZstdSharp.Unsafe;

namespace CacheSerializer.Workloads.Reports;

/// <summary>
/// Issue 18's experiment: would a Zstandard dictionary trained per type from the application's own values cut small and
/// medium items far more than per-item compression? For each object workload a dictionary is trained once from values
/// of the same type built with other seeds (an application's other values of that type), then the published workload
/// value is compressed with and without it.
/// </summary>
/// <remarks>
/// The sizes count the item as the package would store it: the 5-byte compression header, a 1-byte dictionary id, and
/// a standard Zstandard frame without its own 4-byte dictionary id (<c>ZSTD_c_dictIDFlag</c> = 0; the id in front names
/// the dictionary). The value measured is never among the training samples (the samples' seeds start at
/// <see cref="FirstSampleSeed"/>). Deterministic: zstd's trainer and encoder give the same bytes for the same input.
/// </remarks>
public sealed class DictionaryExperiment
{
    /// <summary>The first seed of the training samples; the published workloads use other seeds.</summary>
    public const ulong FirstSampleSeed = 1_000_001;

    /// <summary>The dictionary's capacity in bytes: zstd's guidance is about 100x smaller than the total of the samples, and at most ~100 KB.</summary>
    public const int DictionaryCapacity = 16 * 1024;

    // K: the segment size zstd's default trainer (ZDICT_trainFromBuffer: fastCover, d = 8, 4 steps of k from 50 to 2,000)
    // selects for these samples, pinned (see TrainDictionary).
    private static readonly (string Workload, int Samples, uint K, Func<ulong, object> Create)[] Shapes =
    [
        ("RpcMessage", 1000, 1511, seed => WorkloadFactory.RpcMessage(seed)),
        ("Records32", 1000, 1511, seed => WorkloadFactory.Records(32, seed)),
        ("Folders", 200, 1024, seed => WorkloadFactory.Folders(seed)),
        ("Records1024", 100, 1024, seed => WorkloadFactory.Records(1024, seed)),
        ("LargeObject", 20, 537, seed => WorkloadFactory.LargeObject(2000, seed)),
    ];

    private DictionaryExperiment(IReadOnlyList<DictionaryResult> results) => Results = results;

    /// <summary>Gets one result per workload.</summary>
    public IReadOnlyList<DictionaryResult> Results { get; }

    /// <summary>Trains a dictionary per workload type and measures the published values.</summary>
    /// <param name="level">The Zstandard level of both sides of the comparison.</param>
    /// <returns>The experiment's results.</returns>
    public static DictionaryExperiment Run(int level = 3)
    {
        var transcoder = new ProtobufTranscoder(new ProtobufTranscoderOptions { Compression = TranscoderCompression.None });
        var results = new List<DictionaryResult>();
        foreach ((string? workload, int samples, uint k, Func<ulong, object>? create) in Shapes)
        {
            byte[] payload = transcoder.Serialize(WorkloadCatalog.Get(workload).Value).Data.AsSpan().ToArray();
            byte[][] training = [.. Enumerable.Range(0, samples).Select(i => transcoder.Serialize(create(FirstSampleSeed + (ulong)i)).Data.AsSpan().ToArray())];
            byte[] dictionary = TrainDictionary(training, k);
            results.Add(new DictionaryResult(
                workload,
                payload.Length,
                samples,
                training.Sum(s => (long)s.Length),
                dictionary.Length,
                ItemBytes(payload, level, null),
                ItemBytes(payload, level, dictionary),
                dictionary));
        }

        return new DictionaryExperiment(results);
    }

    /// <summary>Trains a dictionary from payloads as zstd's default trainer does, with its segment size pinned.</summary>
    /// <remarks>
    /// zstd's default trainer (<c>ZDICT_trainFromBuffer</c>) tries five segment sizes k (50 to 2,000 in 4 steps) with
    /// fastCover (d = 8, f = 20, accel 1, 75 % of the samples to train and the rest to compare) and keeps the dictionary
    /// that compresses the held-out samples best. In ZstdSharp 0.8.8 that choice is not deterministic: on LargeObject it
    /// picked k = 1,998 instead of 537 in about one cold process in three (a dictionary 37 bytes better on the measured
    /// value; never with DOTNET_TieredCompilation=0, so it depends on how far the JIT has optimized the port's code when
    /// the comparison runs), which made DictionaryExperimentTests fail when its class ran alone. Training for the one k
    /// the trainer selects otherwise gives the same dictionary, byte for byte, every time.
    /// </remarks>
    /// <param name="samples">The payloads.</param>
    /// <param name="k">The segment size (one of 50, 537, 1,024, 1,511 and 1,998, the values the default trainer tries).</param>
    /// <returns>The dictionary.</returns>
    public static unsafe byte[] TrainDictionary(IReadOnlyList<byte[]> samples, uint k)
    {
        ArgumentNullException.ThrowIfNull(samples);
        byte[] flat = [.. samples.SelectMany(static s => s)];
        nuint[] sizes = [.. samples.Select(static s => (nuint)s.Length)];
        byte[] dictionary = new byte[DictionaryCapacity];

        // ZDICT_trainFromBuffer's parameters (d = 8, steps = 4, level 3; f, accel and the split point at their defaults)
        // with k fixed: the optimizer then tries that k alone.
        var parameters = new ZDICT_fastCover_params_t { d = 8, k = k, steps = 4 };
        parameters.zParams.compressionLevel = 3;
        nuint size;
        fixed (byte* dictionaryPointer = dictionary)
        fixed (byte* flatPointer = flat)
        fixed (nuint* sizesPointer = sizes)
        {
            size = Methods.ZDICT_optimizeTrainFromBuffer_fastCover(dictionaryPointer, (nuint)dictionary.Length, flatPointer, sizesPointer, (uint)sizes.Length, &parameters);
        }

        if (Methods.ZDICT_isError(size))
        {
            throw new InvalidOperationException($"zstd could not train a dictionary: {Methods.ZDICT_getErrorName(size)}");
        }

        Array.Resize(ref dictionary, (int)size);
        return dictionary;
    }

    /// <summary>Returns the stored size of a payload compressed with Zstandard, with or without a dictionary, kept only when smaller.</summary>
    /// <param name="payload">The uncompressed payload.</param>
    /// <param name="level">The Zstandard level.</param>
    /// <param name="dictionary">The dictionary, or <see langword="null"/>.</param>
    /// <returns>The item's payload bytes: the uncompressed length when compressing does not make it smaller.</returns>
    public static int ItemBytes(byte[] payload, int level, byte[]? dictionary)
    {
        ArgumentNullException.ThrowIfNull(payload);
        byte[] frame = Compress(payload, level, dictionary);
        int stored = 5 + (dictionary is null ? 0 : 1) + frame.Length;
        return Math.Min(stored, payload.Length);
    }

    /// <summary>Compresses into one Zstandard frame without a dictionary id in it.</summary>
    /// <param name="payload">The payload.</param>
    /// <param name="level">The level.</param>
    /// <param name="dictionary">The dictionary, or <see langword="null"/>.</param>
    /// <returns>The frame.</returns>
    public static byte[] Compress(byte[] payload, int level, byte[]? dictionary)
    {
        using var compressor = new Compressor(level);
        compressor.SetParameter(ZSTD_cParameter.ZSTD_c_dictIDFlag, 0);
        if (dictionary is not null)
        {
            compressor.LoadDictionary(dictionary);
        }

        return compressor.Wrap(payload).ToArray();
    }

    /// <summary>Writes the results as a Markdown table.</summary>
    /// <returns>The Markdown text.</returns>
    public string ToMarkdown()
    {
        var text = new StringBuilder();
        text.AppendLine("| Workload | uncompressed | training samples (bytes) | dictionary | Zstandard, per item | Zstandard + dictionary | with / without |")
            .AppendLine("|---|---:|---:|---:|---:|---:|---:|");
        foreach (DictionaryResult r in Results)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"| {r.Workload} | {r.Uncompressed:#,0} | {r.Samples:#,0} ({r.SampleBytes:#,0}) | {r.DictionaryBytes:#,0} | {r.WithoutDictionary:#,0} | {r.WithDictionary:#,0} | {(double)r.WithDictionary / r.WithoutDictionary:0.000} |");
        }

        return text.ToString();
    }
}
