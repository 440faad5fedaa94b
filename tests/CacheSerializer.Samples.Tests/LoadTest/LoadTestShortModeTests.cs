using System.Text.Json;
using CacheSerializer.LoadTest;
using CacheSerializer.LoadTest.Display;
using CacheSerializer.LoadTest.Results;
using CacheSerializer.LoadTest.Running;
using CacheSerializer.Workloads.Contenders;

namespace CacheSerializer.Samples.Tests.LoadTest;

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
            [ContenderCatalog.CacheSerializer, ContenderCatalog.CacheSerializerCompressed, ContenderCatalog.Bson, ContenderCatalog.BinaryFormatter, ContenderCatalog.DeflateBinaryFormatter],
            report.Passes.Select(p => p.Contender));
        foreach (PassResult pass in report.Passes)
        {
            string why = $"{pass.Contender}: {pass.Failure}; {string.Join("; ", pass.ErrorSamples.Concat(pass.CorruptionSamples))}\n{log}";
            Assert.True(pass.Completed, why);
            Assert.Equal(0, pass.Corruptions);
            Assert.Equal(0, pass.Errors);
            Assert.True(pass.Hits > 0, why);
            Assert.True(pass.Sets > 0, why);
            Assert.Equal(pass.Operations, pass.Gets + pass.Sets);
            Assert.Equal(pass.Gets, pass.Hits + pass.Misses);
            Assert.Equal(pass.Sets, pass.ItemSizeBytes.Count);
            Assert.True(pass.Server.CurrentItems > 0, why);
        }

        IReadOnlyList<string> files = ReportWriter.Save(report, _output);
        using JsonDocument json = JsonDocument.Parse(File.ReadAllText(files[0]));
        Assert.Equal(report.Passes.Count, json.RootElement.GetProperty("passes").GetArrayLength());
        Assert.StartsWith("<svg", File.ReadAllText(files[2]), StringComparison.Ordinal);
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
