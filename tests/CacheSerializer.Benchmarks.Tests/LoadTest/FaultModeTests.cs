using System.Text.Json;
using CacheSerializer.LoadTest;
using CacheSerializer.LoadTest.Display;
using CacheSerializer.LoadTest.Results;
using CacheSerializer.LoadTest.Running;
using CacheSerializer.Workloads.Contenders;

namespace CacheSerializer.Benchmarks.Tests.LoadTest;

/// <summary>The load test's fault mode against real memcached: one of three servers is killed mid-pass and restarted;
/// the run completes and reports the outage and the recovery, with and without auto-eject.</summary>
public sealed class FaultModeTests : IDisposable
{
    private readonly string _output = Path.Combine(Path.GetTempPath(), "cs-faultmode-" + Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_output))
        {
            Directory.Delete(_output, recursive: true);
        }
    }

    private async Task<(PassResult Pass, string Markdown)> RunAsync(bool autoEject)
    {
        LoadTestSettings settings = new LoadTestSettings().AsShort() with
        {
            Nodes = 3,
            Duration = TimeSpan.FromSeconds(8),
            KillNodeAt = TimeSpan.FromSeconds(2),
            RestartNodeAfter = TimeSpan.FromSeconds(3),
            AutoEject = autoEject,
            Contenders = [ContenderCatalog.CacheSerializer],
            OutputDirectory = _output,
        };
        var log = new StringWriter();
        LoadTestReport report = await LoadTestRunner.RunAsync(settings, new PlainProgressDisplay(log, TimeSpan.FromSeconds(5)), CancellationToken.None);
        IReadOnlyList<string> files = ReportWriter.Save(report, _output);
        using var json = JsonDocument.Parse(File.ReadAllText(files[0]));
        Assert.InRange(json.RootElement.GetProperty("passes")[0].GetProperty("timeline").GetArrayLength(), 8, 9);
        return (Assert.Single(report.Passes), ReportWriter.ToMarkdown(report));
    }

    [Fact]
    public async Task RunAsync_NodeKilledAndRestarted_AutoEjectOff_CompletesWithMissesAndFailedSetsButNoErrors()
    {
        (PassResult pass, string markdown) = await RunAsync(autoEject: false);

        string why = $"{pass.Failure}; {string.Join("; ", pass.ErrorSamples.Concat(pass.CorruptionSamples))}";
        Assert.True(pass.Completed, why);
        Assert.Equal((0, 0), (pass.Errors, pass.Corruptions));
        FaultSummary fault = Assert.IsType<FaultSummary>(pass.Fault);
        Assert.NotNull(fault.RestartedAt);
        Assert.True(pass.StoreFailures > 0, "the dead server's sets reported ServerFailure");
        Assert.True(fault.HitRatioWhileDown < fault.HitRatioBefore || fault.HitRatioWhileDown < 0.9, $"{fault.HitRatioBefore} -> {fault.HitRatioWhileDown}");
        Assert.True(fault.HitRatioAfter > 0, "hits came back after the restart");
        Assert.Equal(pass.StoreFailures, pass.Timeline.Sum(s => s.StoreFailures));
        Assert.Equal(pass.Operations, pass.Timeline.Sum(s => s.Operations));
        Assert.Contains("| s | ops | hits | misses | hit % | failed sets | errors |", markdown, StringComparison.Ordinal);
        Assert.Contains(" killed (SIGKILL) at ", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunAsync_NodeKilledAndRestarted_AutoEjectOn_SetsSucceedOnTheLiveServersAfterTheDetectionWindow()
    {
        (PassResult pass, _) = await RunAsync(autoEject: true);

        string why = $"{pass.Failure}; {string.Join("; ", pass.ErrorSamples.Concat(pass.CorruptionSamples))}";
        Assert.True(pass.Completed, why);
        Assert.Equal((0, 0), (pass.Errors, pass.Corruptions));
        FaultSummary fault = Assert.IsType<FaultSummary>(pass.Fault);
        Assert.True(fault.FailingSeconds <= 2, $"sets failed in {fault.FailingSeconds} seconds: the ejection should end them within the detection window");
        long failedAfterDetection = pass.Timeline.Where(s => s.Second > (int)fault.KilledAt + 1).Sum(s => s.StoreFailures + s.Errors);
        Assert.Equal(0, failedAfterDetection);
    }
}
