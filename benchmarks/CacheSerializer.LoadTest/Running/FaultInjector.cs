using System.Globalization;
using CacheSerializer.LoadTest.Scenarios;

namespace CacheSerializer.LoadTest.Running;

/// <summary>The fault mode of a pass (<c>--kill-node-at</c>): kills the last server the run started that far into the
/// pass and restarts it <c>--restart-node-after</c> later, noting when each happened.</summary>
internal sealed class FaultInjector
{
    private readonly ServerSet _servers;
    private readonly LoadTestSettings _settings;
    private readonly PassProgress _progress;
    private readonly List<string> _events = [];

    /// <summary>Creates the injector of one pass.</summary>
    /// <param name="servers">The run's servers (started here).</param>
    /// <param name="settings">The run's settings (when to kill, when to restart).</param>
    /// <param name="progress">The pass's clock.</param>
    public FaultInjector(ServerSet servers, LoadTestSettings settings, PassProgress progress)
    {
        _servers = servers;
        _settings = settings;
        _progress = progress;
        Index = servers.Endpoints.Count - 1;
    }

    /// <summary>Gets the index of the server that is killed.</summary>
    public int Index { get; }

    /// <summary>Gets the second of the pass the server was killed in, or null.</summary>
    public double? KilledAt { get; private set; }

    /// <summary>Gets the second of the pass the server was restarted in, or null (not within the pass).</summary>
    public double? RestartedAt { get; private set; }

    /// <summary>Gets what happened, in words, with the second of the pass.</summary>
    public IReadOnlyList<string> Events => _events;

    /// <summary>Kills the server at its time and restarts it later, unless the pass ends first.</summary>
    /// <param name="passEnded">Cancelled when the pass's users have stopped.</param>
    /// <returns>A task that ends after the restart, or when the pass ends.</returns>
    public async Task RunAsync(CancellationToken passEnded)
    {
        try
        {
            await UntilAsync(_settings.KillNodeAt!.Value, passEnded).ConfigureAwait(false);
            _servers.Kill(Index);
            KilledAt = _progress.Elapsed.TotalSeconds;
            _events.Add(string.Create(CultureInfo.InvariantCulture, $"{_servers.Endpoints[Index]} killed (SIGKILL) at {KilledAt:0.0} s"));
            await UntilAsync(_settings.KillNodeAt.Value + _settings.RestartNodeAfter, passEnded).ConfigureAwait(false);
            _servers.Restart(Index);
            RestartedAt = _progress.Elapsed.TotalSeconds;
            _events.Add(string.Create(CultureInfo.InvariantCulture, $"{_servers.Endpoints[Index]} restarted (empty) at {RestartedAt:0.0} s"));
        }
        catch (OperationCanceledException) when (passEnded.IsCancellationRequested)
        {
        }
    }

    /// <summary>Restarts the server if the pass ended while it was down, so the next pass starts with every server up.</summary>
    public void RestoreAfterPass()
    {
        if (KilledAt is not null && RestartedAt is null)
        {
            _servers.Restart(Index);
            _events.Add($"{_servers.Endpoints[Index]} restarted (empty) after the pass");
        }
    }

    private async Task UntilAsync(TimeSpan at, CancellationToken passEnded)
    {
        // The clock is read once a round: read twice, it could pass 'at' between the check and the subtraction and hand
        // Task.Delay a negative time (an ArgumentOutOfRangeException seen in a repeated run).
        for (TimeSpan left = at - _progress.Elapsed; left > TimeSpan.Zero; left = at - _progress.Elapsed)
        {
            await Task.Delay(left < TimeSpan.FromMilliseconds(100) ? left : TimeSpan.FromMilliseconds(100), passEnded).ConfigureAwait(false);
        }
    }
}
