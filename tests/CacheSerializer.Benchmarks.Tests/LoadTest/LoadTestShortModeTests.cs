using System.Text.Json;
using CacheSerializer.LoadTest;
using CacheSerializer.LoadTest.Display;
using CacheSerializer.LoadTest.Results;
using CacheSerializer.LoadTest.Running;
using CacheSerializer.Workloads.Contenders;

namespace CacheSerializer.Benchmarks.Tests.LoadTest;

/// <summary>The load test's short mode, run once against real memcached: every contender completes, nothing is corrupt.</summary>
public sealed class LoadTestShortModeTests : IDisposable
{
    private readonly string _output = Path.Combine(Path.GetTempPath(), "cs-loadtest-" + Guid.NewGuid().ToString("N"));

    [Fact]
    public async Task RunAsync_ShortMode_EveryContenderCompletesWithZeroCorruptions()
    {
        LoadTestSettings settings = new LoadTestSettings().AsShort() with { OutputDirectory = _output };
        var log = new StringWriter();

        LoadTestReport report = await LoadTestRunner.RunAsync(settings, new PlainProgressDisplay(log, TimeSpan.FromSeconds(5)), CancellationToken.None);

        Assert.Equal(
            [ContenderCatalog.CacheSerializer, ContenderCatalog.CacheSerializerUncompressed, ContenderCatalog.CacheSerializerLz4, ContenderCatalog.Bson, ContenderCatalog.BinaryFormatter, ContenderCatalog.DeflateBinaryFormatter],
            report.Passes.Select(p => p.Contender));
        AssertEveryPassCompletedWarm(report, settings.Keys, log);

        // The first contender ran again at the end, and the run says whether its ratios can be read.
        Assert.Equal(ContenderCatalog.CacheSerializer, report.Repeat?.Contender);
        Assert.NotNull(report.Readability);
        Assert.Equal(report.Passes[0].OperationsPerSecond, report.Readability.FirstOperationsPerSecond);
        Assert.Equal(report.Repeat!.OperationsPerSecond, report.Readability.RepeatOperationsPerSecond);

        IReadOnlyList<string> files = ReportWriter.Save(report, _output);
        using var json = JsonDocument.Parse(File.ReadAllText(files[0]));
        Assert.Equal(report.Passes.Count, json.RootElement.GetProperty("passes").GetArrayLength());
        string svg = File.ReadAllText(files[2]);
        Assert.StartsWith("<svg", svg, StringComparison.Ordinal);
        Assert.Contains("x BinaryFormatter+Deflate", svg, StringComparison.Ordinal);
        Assert.Contains("x BSON", svg, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_ShortModeWithThePeers_EachCompletesOnItsOwnModelsWithZeroCorruptions()
    {
        LoadTestSettings settings = new LoadTestSettings().AsShort() with
        {
            OutputDirectory = _output,
            Contenders = [ContenderCatalog.MessagePack, ContenderCatalog.MessagePackLz4, ContenderCatalog.MemoryPack, ContenderCatalog.ProtobufNet],
            Duration = TimeSpan.FromSeconds(2),
        };
        var log = new StringWriter();

        LoadTestReport report = await LoadTestRunner.RunAsync(settings, new PlainProgressDisplay(log, TimeSpan.FromSeconds(5)), CancellationToken.None);

        Assert.Equal(settings.Contenders, report.Passes.Select(p => p.Contender));
        AssertEveryPassCompletedWarm(report, settings.Keys, log);
    }

    private static void AssertEveryPassCompletedWarm(LoadTestReport report, int keys, StringWriter log)
    {
        foreach (PassResult pass in report.Passes)
        {
            string why = $"{pass.Contender}: {pass.Failure}; {string.Join("; ", pass.ErrorSamples.Concat(pass.CorruptionSamples))}\n{log}";
            Assert.True(pass.Completed, why);
            Assert.Equal(0, pass.Corruptions);
            Assert.Empty(pass.Unreadable);
            Assert.Equal(0, pass.LostWrites);
            Assert.Equal(0, pass.Errors);
            Assert.True(pass.Hits > 0, why);
            Assert.True(pass.Sets > 0, why);
            Assert.Equal(pass.Operations, pass.Gets + pass.Sets);
            Assert.Equal(pass.Gets, pass.Hits + pass.Misses);

            // The warm-up stored every key before the measured phase, so no get missed and nothing was evicted; the
            // item sizes hold the warm-up's writes and the measured phase's.
            Assert.Equal(new CacheSerializer.LoadTest.Running.WarmUpResult(keys, 0, pass.WarmUp!.Seconds, null), pass.WarmUp);
            Assert.Equal(0, pass.Misses);
            Assert.Equal(0, pass.Server.Evictions);
            Assert.Equal(pass.Sets + keys, pass.ItemSizeBytes.Count);
            Assert.Equal(keys, pass.Server.CurrentItems);

            // The transcoder's thread CPU is part of the process's CPU (this suite runs on Linux, where it is measured).
            Assert.NotNull(pass.TranscoderCpuMicrosecondsPerOperation);
            Assert.InRange(pass.TranscoderCpuMicrosecondsPerOperation.Value, double.Epsilon, pass.ClientCpuMicrosecondsPerOperation);
        }
    }

    [Fact]
    public async Task RunAsync_ShortModeOverTls_EveryValueReadBackOverEncryptedConnections()
    {
        // Two servers started with -Z and a throwaway certificate, one contender for a short pass: the harness's TLS
        // mode end to end (the full comparison with plaintext is docs/benchmarks.md's).
        LoadTestSettings settings = new LoadTestSettings().AsShort() with
        {
            OutputDirectory = _output,
            Tls = true,
            Nodes = 2,
            Duration = TimeSpan.FromSeconds(2),
            Contenders = [ContenderCatalog.CacheSerializer],
        };

        LoadTestReport report = await LoadTestRunner.RunAsync(settings, new PlainProgressDisplay(new StringWriter(), TimeSpan.FromSeconds(5)), CancellationToken.None);

        PassResult pass = Assert.Single(report.Passes);
        Assert.True(pass.Completed, $"{pass.Failure}; {string.Join("; ", pass.ErrorSamples.Concat(pass.CorruptionSamples))}");
        Assert.Equal((0L, 0L), (pass.Corruptions, pass.Errors));
        Assert.True(pass.Hits > 0);
        Assert.EndsWith("(started here: memcached -m 256 -I 2m -t 2 -Z (TLS, throwaway ECDSA P-256 certificate validated by the client))", report.Servers, StringComparison.Ordinal);
        Assert.Contains("-Z (TLS, throwaway", ReportWriter.ToMarkdown(report), StringComparison.Ordinal);
    }

    public void Dispose()
    {
        if (Directory.Exists(_output))
        {
            Directory.Delete(_output, recursive: true);
        }
    }
}
