using System.Globalization;

namespace CacheSerializer.LoadTest.Results;

/// <summary>
/// Whether a run's throughput ratios can be read: the machine's load around it, the shortest pass, and a repeat of the
/// first contender's pass at the end (its two throughputs' coefficient of variation is the noise every ratio carries).
/// </summary>
/// <param name="Cores">The machine's cores.</param>
/// <param name="LoadBefore">The 1-minute load average when the run started, or null where there is none.</param>
/// <param name="LoadAfter">The 1-minute load average when it ended, or null.</param>
/// <param name="FewestOperations">The operations of the pass that did fewest.</param>
/// <param name="RepeatedContender">The contender run twice, or null when there was no repeat.</param>
/// <param name="FirstOperationsPerSecond">Its first pass's throughput.</param>
/// <param name="RepeatOperationsPerSecond">Its repeat's throughput.</param>
internal sealed record RunReadability(
    int Cores, double? LoadBefore, double? LoadAfter, long FewestOperations, string? RepeatedContender, double FirstOperationsPerSecond, double RepeatOperationsPerSecond)
{
    /// <summary>The largest coefficient of variation of the repeat at which ratios are still read: 10%.</summary>
    public const double MaxVariation = 0.10;

    /// <summary>The fewest operations a pass needs for its throughput to mean something: 1,000.</summary>
    public const long MinOperations = 1000;

    /// <summary>Gets the coefficient of variation of the two throughputs of the repeated contender (sample standard deviation / mean), or null.</summary>
    public double? Variation
    {
        get
        {
            if (RepeatedContender is null || FirstOperationsPerSecond + RepeatOperationsPerSecond <= 0)
            {
                return null;
            }

            double mean = (FirstOperationsPerSecond + RepeatOperationsPerSecond) / 2;
            return Math.Abs(FirstOperationsPerSecond - RepeatOperationsPerSecond) / Math.Sqrt(2) / mean;
        }
    }

    /// <summary>Gets a value indicating whether the ratios of this run can be read (no warning).</summary>
    public bool Readable => Warnings.Count == 0;

    /// <summary>Gets what makes the throughput ratios unreadable, one sentence each; empty when none.</summary>
    public IReadOnlyList<string> Warnings
    {
        get
        {
            var warnings = new List<string>();
            double? load = LoadBefore is double before && LoadAfter is double after ? Math.Max(before, after) : LoadBefore ?? LoadAfter;
            if (load is double l && l > Cores)
            {
                warnings.Add(string.Create(CultureInfo.InvariantCulture, $"the machine was loaded: 1-minute load average {LoadBefore?.ToString("0.0", CultureInfo.InvariantCulture) ?? "n/a"} at the start and {LoadAfter?.ToString("0.0", CultureInfo.InvariantCulture) ?? "n/a"} at the end on {Cores} cores, so other processes took part of the CPU the passes measure"));
            }

            if (FewestOperations < MinOperations)
            {
                warnings.Add(string.Create(CultureInfo.InvariantCulture, $"the run is too short: a pass did {FewestOperations:N0} operations (fewer than {MinOperations:N0}); use a longer --duration"));
            }

            if (Variation is double cv && cv > MaxVariation)
            {
                warnings.Add(string.Create(CultureInfo.InvariantCulture, $"the repeat of {RepeatedContender} ran at {RepeatOperationsPerSecond:N0} ops/s against {FirstOperationsPerSecond:N0} the first time (coefficient of variation {cv * 100:0}%, more than {MaxVariation * 100:0}%): ratios closer to 1 than that are noise"));
            }

            return warnings;
        }
    }

    /// <summary>Reads the 1-minute load average (Linux), or returns null.</summary>
    /// <returns>The load average, or null.</returns>
    public static double? ReadLoadAverage()
    {
        try
        {
            return File.Exists("/proc/loadavg")
                && double.TryParse(File.ReadAllText("/proc/loadavg").Split(' ')[0], NumberStyles.Float, CultureInfo.InvariantCulture, out double load)
                ? load
                : null;
        }
        catch (IOException)
        {
            return null;
        }
    }
}
