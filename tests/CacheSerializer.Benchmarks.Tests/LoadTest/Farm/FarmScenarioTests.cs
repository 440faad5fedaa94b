using System.Text.Json;
using CacheSerializer.LoadTest.Farm;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Farm;

/// <summary>The farm scenario's short mode against real memcached: every mode completes without errors or corrupt
/// values (nor unreadable items) and without lost writes, GetOrCreateAsync runs at most one factory call per expiry,
/// plain get/set many.</summary>
public sealed class FarmScenarioTests : IDisposable
{
    private readonly string _output = Path.Combine(Path.GetTempPath(), "cs-farm-" + Guid.NewGuid().ToString("N"));

    [Fact]
    public async Task RunAsync_ShortMode_FarmModesOneFactoryCallPerExpiryPlainMany()
    {
        FarmSettings settings = new FarmSettings().AsShort() with { OutputDirectory = _output };
        var log = new StringWriter();

        FarmReport report = await FarmRunner.RunAsync(settings, log, CancellationToken.None);

        Assert.Equal(["plain", "hybrid", "farm", "farm-stale"], report.Modes.Select(m => m.Mode));
        foreach (FarmModeResult mode in report.Modes)
        {
            string why = $"{mode.Mode}: {string.Join("; ", mode.Samples)}\n{log}";
            Assert.True(mode.Errors == 0 && mode.Corruptions == 0, why);
            Assert.Empty(mode.Unreadable);
            Assert.Equal(0, mode.LostWrites);
            Assert.Equal(2 * 4, mode.Expiries); // 2 keys: the first fill and 3 scheduled expiries each
            Assert.True(mode.Reads > 1000, why);
            Assert.Equal(mode.Expiries, mode.CallsByExpiry.Count);
        }

        FarmModeResult plain = report.Modes[0];
        Assert.True(plain.MaxCallsPerExpiry > settings.Clients, $"plain get/set ran at most {plain.MaxCallsPerExpiry} factory calls per expiry\n{log}");
        foreach (FarmModeResult farm in report.Modes.Skip(2))
        {
            Assert.True(farm.MaxCallsPerExpiry == 1, $"{farm.Mode}: calls per expiry {string.Join(",", farm.CallsByExpiry)}\n{log}");
        }

        Assert.True(report.Modes[3].StaleReads > 0, "farm-stale served no stale value"); // stale served while one refreshes
        IReadOnlyList<string> files = FarmReportWriter.Save(report, _output);
        using var json = JsonDocument.Parse(File.ReadAllText(files[0]));
        Assert.Equal(4, json.RootElement.GetProperty("modes").GetArrayLength());
        Assert.Contains("| farm | 8 |", File.ReadAllText(files[1]), StringComparison.Ordinal);
    }

    public void Dispose()
    {
        if (Directory.Exists(_output))
        {
            Directory.Delete(_output, recursive: true);
        }
    }
}
