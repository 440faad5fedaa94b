using System.Runtime.InteropServices;

namespace CacheSerializer.LoadTest.Scenarios;

/// <summary>When a run (the main pass or a scenario) started and the load average then; at its end, the lines every
/// report gives of the machine and its load.</summary>
internal sealed class RunStart
{
    private readonly string _loadBefore;

    private RunStart(DateTimeOffset started, string loadBefore)
    {
        Started = started;
        _loadBefore = loadBefore;
    }

    /// <summary>Gets when the run started (UTC).</summary>
    public DateTimeOffset Started { get; }

    /// <summary>Notes the start of a run: now, and the load average now.</summary>
    /// <returns>The start.</returns>
    public static RunStart Now() => new(DateTimeOffset.UtcNow, LoadAverage());

    /// <summary>Returns the report's load line: the 1-minute load average at the start and now, and the cores.</summary>
    /// <returns>The line.</returns>
    public string LoadAverageLine() => $"{_loadBefore} at start, {LoadAverage()} at end (1-minute, {Environment.ProcessorCount} cores)";

    /// <summary>Returns the machine line: .NET runtime, OS, CPU model (from /proc/cpuinfo on Linux) and cores.</summary>
    /// <returns>The line.</returns>
    public static string MachineLine()
    {
        string cpu = "unknown CPU";
        try
        {
            if (File.Exists("/proc/cpuinfo"))
            {
                string? line = File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal));
                cpu = line is null ? cpu : line[(line.IndexOf(':', StringComparison.Ordinal) + 1)..].Trim();
            }
        }
        catch (IOException)
        {
        }

        return $"{RuntimeInformation.FrameworkDescription}, {RuntimeInformation.OSDescription}, {cpu}, {Environment.ProcessorCount} cores";
    }

    /// <summary>Returns the 1-minute load average (Linux), or "n/a".</summary>
    /// <returns>The load average.</returns>
    private static string LoadAverage()
    {
        try
        {
            return File.Exists("/proc/loadavg") ? File.ReadAllText("/proc/loadavg").Split(' ')[0] : "n/a";
        }
        catch (IOException)
        {
            return "n/a";
        }
    }
}
