using System.Text.Json;
using CacheSerializer.LoadTest.Hybrid;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Hybrid;

/// <summary>The hybrid scenario's short mode on real memcached and redis-server: every contender completes without
/// errors or corrupt values; the package's HybridCache returns no stale value in either mode (its documented guarantee:
/// no read that starts after a removal returned gets the old value), Microsoft's, whose L1 no other server's removal
/// reaches, returns some.</summary>
public sealed class HybridScenarioTests : IDisposable
{
    private readonly string _output = Path.Combine(Path.GetTempPath(), "cs-hybrid-" + Guid.NewGuid().ToString("N"));

    [Fact]
    public async Task RunAsync_ShortMode_PackageNeverStaleMicrosoftsL1Stale()
    {
        HybridSettings settings = new HybridSettings().AsShort() with { OutputDirectory = _output };
        var log = new StringWriter();

        HybridReport report = await HybridRunner.RunAsync(settings, log, CancellationToken.None);

        Assert.Equal(HybridSettings.ContenderNames, report.Contenders.Select(c => c.Contender));
        foreach (HybridContenderResult contender in report.Contenders)
        {
            string why = $"{contender.Contender}: {string.Join("; ", contender.Samples)}\n{log}";
            Assert.True(contender.Errors == 0 && contender.Corruptions == 0, why);
            Assert.Equal(119, contender.Updates); // one every 25 ms in 3 s, the last one before the end
            Assert.True(contender.Reads > 100 && contender.L2Reads > 10, why);
            Assert.True(contender.FactoryCalls >= contender.VersionsCreated && contender.VersionsCreated > 0, why);
        }

        foreach (HybridContenderResult package in report.Contenders.Take(2))
        {
            Assert.True(package.StaleReads == 0 && package.StaleL2Reads == 0, $"{package.Contender}: {package.StaleReads} stale, {package.StaleL2Reads} at L2\n{log}");
        }

        foreach (HybridContenderResult microsoft in report.Contenders.Skip(2).Take(2))
        {
            Assert.True(microsoft.StaleReads > 0, $"{microsoft.Contender} returned no stale value from its L1\n{log}");
        }

        Assert.True(report.Passed());
        IReadOnlyList<string> files = HybridReportWriter.Save(report, _output);
        using var json = JsonDocument.Parse(File.ReadAllText(files[0]));
        Assert.Equal(6, json.RootElement.GetProperty("contenders").GetArrayLength());
        Assert.Contains("| strict | ", File.ReadAllText(files[1]), StringComparison.Ordinal);
    }

    public void Dispose()
    {
        if (Directory.Exists(_output))
        {
            Directory.Delete(_output, recursive: true);
        }
    }
}
