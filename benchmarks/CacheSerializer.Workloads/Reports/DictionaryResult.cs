namespace CacheSerializer.Workloads.Reports;

/// <summary>One workload's figures in the <see cref="DictionaryExperiment"/>.</summary>
/// <param name="Workload">The workload.</param>
/// <param name="Uncompressed">Its uncompressed payload bytes.</param>
/// <param name="Samples">The number of training samples.</param>
/// <param name="SampleBytes">Their total bytes.</param>
/// <param name="DictionaryBytes">The trained dictionary's bytes.</param>
/// <param name="WithoutDictionary">The stored bytes with per-item Zstandard.</param>
/// <param name="WithDictionary">The stored bytes with the dictionary (1-byte id included).</param>
/// <param name="Dictionary">The dictionary itself.</param>
public sealed record DictionaryResult(string Workload, int Uncompressed, int Samples, long SampleBytes, int DictionaryBytes, int WithoutDictionary, int WithDictionary, byte[] Dictionary);
