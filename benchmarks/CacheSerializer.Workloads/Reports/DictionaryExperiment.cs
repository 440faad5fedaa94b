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

    private static readonly (string Workload, int Samples, Func<ulong, object> Create)[] Shapes =
    [
        ("RpcMessage", 1000, seed => WorkloadFactory.RpcMessage(seed)),
        ("Records32", 1000, seed => WorkloadFactory.Records(32, seed)),
        ("Folders", 200, seed => WorkloadFactory.Folders(seed)),
        ("Records1024", 100, seed => WorkloadFactory.Records(1024, seed)),
        ("LargeObject", 20, seed => WorkloadFactory.LargeObject(2000, seed)),
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
        foreach (var (workload, samples, create) in Shapes)
        {
            byte[] payload = transcoder.Serialize(WorkloadCatalog.Get(workload).Value).Data.AsSpan().ToArray();
            byte[][] training = [.. Enumerable.Range(0, samples).Select(i => transcoder.Serialize(create(FirstSampleSeed + (ulong)i)).Data.AsSpan().ToArray())];
            byte[] dictionary = TrainDictionary(training);
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

    /// <summary>Trains a dictionary from payloads with zstd's default trainer.</summary>
    /// <param name="samples">The payloads.</param>
    /// <returns>The dictionary.</returns>
    public static byte[] TrainDictionary(IEnumerable<byte[]> samples) => DictBuilder.TrainFromBuffer(samples, DictionaryCapacity);

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
