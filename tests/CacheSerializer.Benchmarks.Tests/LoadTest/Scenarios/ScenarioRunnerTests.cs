using System.Globalization;
using System.Net;
using System.Net.Sockets;
using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.Benchmarks.Tests.LoadTest.Scenarios;

/// <summary>The skeleton every run goes through: its part loop, its lines, and the servers it opens and stops.</summary>
public sealed class ScenarioRunnerTests
{
    [Fact]
    public async Task RunPartsAsync_CtrlCBeforeAPartHadAResult_ReturnsThePartsDoneAndRunsNoMore()
    {
        using var ctrlC = new CancellationTokenSource();
        var lines = new List<string>();
        var started = new List<int>();

        IReadOnlyList<int> results = await ScenarioRunner.RunPartsAsync(
            [1, 2, 3],
            async part =>
            {
                started.Add(part);
                await Task.Yield();
                if (part == 2)
                {
                    await ctrlC.CancelAsync();
                    ctrlC.Token.ThrowIfCancellationRequested();
                }

                return part * 10;
            },
            result => $"part {result}",
            lines.Add,
            ctrlC.Token);

        Assert.Equal([10], results);
        Assert.Equal([1, 2], started);
        Assert.Equal(["part 10"], lines);
    }

    [Fact]
    public async Task RunPartsAsync_CtrlCDuringAPartThatReturns_KeepsItsResultAndStartsNoMore()
    {
        using var ctrlC = new CancellationTokenSource();
        var started = new List<int>();

        IReadOnlyList<int> results = await ScenarioRunner.RunPartsAsync(
            [1, 2, 3],
            async part =>
            {
                started.Add(part);
                await ctrlC.CancelAsync();
                return part * 10;
            },
            summary: null,
            _ => Assert.Fail("no summary: the part shows its own end"),
            ctrlC.Token);

        Assert.Equal([10], results);
        Assert.Equal([1], started);
    }

    [Fact]
    public async Task RunPartsAsync_CancelledWithoutCtrlC_Throws()
    {
        using var other = new CancellationTokenSource();
        await other.CancelAsync();

        await Assert.ThrowsAsync<TaskCanceledException>(() => ScenarioRunner.RunPartsAsync(
            [1],
            async part =>
            {
                await Task.Delay(Timeout.Infinite, other.Token);
                return part;
            },
            result => $"part {result}",
            _ => { },
            CancellationToken.None));
    }

    [Fact]
    public async Task RunAsync_OpenedServers_LogsTheirLineAndTheDescriptionFillsTheRunFieldsAndStopsThem()
    {
        var lines = new List<string>();
        IReadOnlyList<string>? endpoints = null;

        PartsReport report = await ScenarioRunner.RunAsync(
            () => ServerSet.Start(2, "-m 16"),
            servers => [$"last server {servers.Endpoints[^1]}"],
            ["a", "b"],
            (part, servers) =>
            {
                endpoints = servers.Endpoints;
                return Task.FromResult($"{part} on {servers.Endpoints.Count}");
            },
            result => $"done: {result}",
            results => new PartsReport { Done = results },
            lines.Add,
            CancellationToken.None);

        Assert.NotNull(endpoints);
        string serverLine = $"{string.Join(", ", endpoints)} (started here: memcached -m 16)";
        Assert.Equal([$"memcached: {serverLine}", $"last server {endpoints[^1]}", "done: a on 2", "done: b on 2"], lines);
        Assert.Equal(["a on 2", "b on 2"], report.Done);
        Assert.Equal(serverLine, report.Servers);
        Assert.True(report.Finished >= report.Started);
        Assert.EndsWith($"{Environment.ProcessorCount} cores", report.Machine, StringComparison.Ordinal);
        Assert.EndsWith($"at end (1-minute, {Environment.ProcessorCount} cores)", report.LoadAverage, StringComparison.Ordinal);
        foreach (string endpoint in endpoints)
        {
            using var probe = new TcpClient();
            Assert.ThrowsAny<SocketException>(() => probe.Connect(IPAddress.Loopback, int.Parse(endpoint[(endpoint.IndexOf(':', StringComparison.Ordinal) + 1)..], CultureInfo.InvariantCulture)));
        }
    }

    /// <summary>A report of what the parts returned (the run's own fields come from the skeleton).</summary>
    private sealed record PartsReport : ScenarioReport
    {
        public required IReadOnlyList<string> Done { get; init; }

        public override IEnumerable<IScenarioPartResult> PartResults() => [];
    }
}
