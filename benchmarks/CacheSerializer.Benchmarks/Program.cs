using BenchmarkDotNet.Running;
using CacheSerializer.Workloads.Reports;

// The size report needs no timing: `-- sizes [chart.svg]` prints payload bytes for every workload and contender.
if (args.Length > 0 && args[0] == "sizes")
{
    var report = SizeReport.ForCatalogs();
    Console.Write(report.ToMarkdown());
    if (args.Length > 1)
    {
        report.ToChart().Save(args[1]);
    }

    return;
}

// The bytes half of the compression comparison: `-- compression` (see CompressionReport; the CPU half is CompressionBenchmarks).
if (args.Length > 0 && args[0] == "compression")
{
    Console.Write(CompressionReport.ForCatalogs().ToMarkdown());
    return;
}

// The dictionary experiment's bytes: `-- dictionary` (see DictionaryExperiment; the CPU half is DictionaryBenchmarks).
if (args.Length > 0 && args[0] == "dictionary")
{
    Console.Write(DictionaryExperiment.Run().ToMarkdown());
    return;
}

// Ratios of medians from a finished run's CSV: `-- ratios RESULTS/X-report.csv [chart.svg] [--baseline NAME]` (see
// MedianRatioReport); the baseline is BSON unless named (issue 18's targets read the object workloads against MessagePack).
if (args.Length > 1 && args[0] == "ratios")
{
    int named = Array.IndexOf(args, "--baseline");
    string baseline = named > 0 && named + 1 < args.Length ? args[named + 1] : "BSON";
    string[] files = named > 0 ? args[..named] : args;
    var ratios = MedianRatioReport.Parse(File.ReadAllText(files[1]), baseline);
    Console.Write(ratios.ToMarkdown());
    if (files.Length > 2)
    {
        string operation = Path.GetFileName(files[1]).Split('-')[0].Split('.')[^1].Replace("Benchmarks", "", StringComparison.Ordinal);
        ratios.ToChart($"{operation}: median time relative to {baseline} (lower is faster)").Save(files[2]);
    }

    return;
}

// Every benchmark class in this assembly is reachable by filter:
//   dotnet run -c Release --project benchmarks/CacheSerializer.Benchmarks -- --filter '*'
// The memcached client against memcaslap and StackExchange.Redis (a console load run, not BenchmarkDotNet):
// -- client-benchmark [seconds] [rounds] (the old name client-vs-memcaslap still works);
// the cost of TLS (our client plaintext vs TLS; memcaslap has no TLS): -- client-benchmark --tls [seconds] [rounds]
if (CacheSerializer.Benchmarks.Memcached.ClientBenchmark.TryRun(args))
{
    return;
}

// Blocking on the client's tasks (an EnyimMemcachedCore application's synchronous calls) against awaiting them:
// -- sync-over-async [seconds] [callers] (docs/migrating-from-enyim.md, "Synchronous calls").
if (CacheSerializer.Benchmarks.Memcached.SyncOverAsyncExperiment.TryRun(args))
{
    return;
}

BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
