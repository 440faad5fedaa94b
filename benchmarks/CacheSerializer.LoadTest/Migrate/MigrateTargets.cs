using System.Globalization;
using static CacheSerializer.LoadTest.Scenarios.ScenarioReportWriter;

namespace CacheSerializer.LoadTest.Migrate;

/// <summary>The migration's targets (docs/loadtest.md, "Migration from EnyimMemcachedCore (issue 31)"), checked on the
/// Enyim-shaped path, and the contrast's figures that show what that path avoids.</summary>
internal static class MigrateTargets
{
    /// <summary>The most the hit rate of a phase after the first switch may differ from the one before: 1 point.</summary>
    public const double HitRateTolerance = 0.01;

    private static readonly MigratePhase[] Compared = [MigratePhase.Switch, MigratePhase.After, MigratePhase.Flip, MigratePhase.SecondStep];

    /// <summary>Checks the targets of the Enyim-shaped path and reports the contrast's figures, for the paths run.</summary>
    /// <param name="paths">The paths' results.</param>
    /// <returns>One line per target or figure.</returns>
    public static IReadOnlyList<MigrateCheck> Evaluate(IReadOnlyList<MigratePathResult> paths)
    {
        var checks = new List<MigrateCheck>();
        foreach (MigratePathResult path in paths)
        {
            checks.AddRange(path.Path == MigrateSettings.NameOf(MigratePath.Enyim) ? Targets(path) : Contrast(path));
        }

        return checks;
    }

    /// <summary>A hit rate as the table prints it.</summary>
    /// <param name="rate">The rate.</param>
    /// <returns>The text.</returns>
    public static string Percent(double rate) => rate.ToString("0.00 %", CultureInfo.InvariantCulture);

    private static IEnumerable<MigrateCheck> Targets(MigratePathResult path)
    {
        MigratePhaseResult? before = path[MigratePhase.Before];
        foreach (MigratePhase phase in Compared)
        {
            if (before is not null && path[phase] is MigratePhaseResult result)
            {
                double delta = result.HitRate - before.HitRate;
                yield return new(path.Path, $"hit rate during {result.Phase} within 1 point of before",
                    $"before {Percent(before.HitRate)}, {result.Phase} {Percent(result.HitRate)} ({Points(delta)})", Math.Abs(delta) <= HitRateTolerance);
            }
        }

        yield return new(path.Path, "0 stale values", ByPhase(path, p => p.StaleValues), path.StaleValues == 0);
        yield return new(path.Path, "0 wrong values", ByPhase(path, p => p.WrongValues), path.Corruptions == 0);
        yield return new(path.Path, $"0 non-values read by old servers (while new ones made {ByPhase(path, p => p.GetOrCreateReads)} GetOrCreateAsync reads)", ByPhase(path, p => p.NonValues), path.NonValues == 0);
        yield return new(path.Path, "0 exceptions on old servers", ByPhase(path, p => p.OldServerExceptions), path.OldServerExceptions == 0);
        yield return new(path.Path, "0 exceptions on new servers", ByPhase(path, p => p.NewServerExceptions), path.NewServerExceptions == 0);
        yield return new(path.Path, "0 lost hits (misses on keys memcached held)",
            path.LostWrites is null ? "unknown: memcached evicted" : ByPhase(path, p => p.LostHits ?? 0), path.LostWrites == 0);
        if (path[MigratePhase.After] is MigratePhaseResult after && path[MigratePhase.SecondStep] is MigratePhaseResult second)
        {
            yield return new(path.Path, "second-step: bytes per item written fall to protobuf's (no object written as BSON)",
                $"after {Bytes(after)}, second-step {Bytes(second)}",
                second.ItemsWritten > 0 && second.BsonItemsWritten == 0 && second.BytesPerItemWritten < after.BytesPerItemWritten);
        }
    }

    private static IEnumerable<MigrateCheck> Contrast(MigratePathResult path)
    {
        MigratePhaseResult? before = path[MigratePhase.Before];
        if (before is not null)
        {
            yield return new(path.Path, "hit rate lost", string.Join(", ",
                new[] { before }.Concat(Compared.Select(p => path[p]).OfType<MigratePhaseResult>()).Select(p =>
                    p == before ? $"before {Percent(p.HitRate)}" : $"{p.Phase} {Percent(p.HitRate)} ({Points(p.HitRate - before.HitRate)})")), null);
        }

        yield return new(path.Path, "stale values", ByPhase(path, p => p.StaleValues), null);
        yield return new(path.Path, "lost hits (misses on keys memcached held)", path.LostWrites is null ? "unknown: memcached evicted" : ByPhase(path, p => p.LostHits ?? 0), null);
        yield return new(path.Path, "exceptions on old servers", ByPhase(path, p => p.OldServerExceptions), null);
        yield return new(path.Path, "exceptions on new servers", ByPhase(path, p => p.NewServerExceptions), null);
        yield return new(path.Path, "wrong values", ByPhase(path, p => p.WrongValues), null);
        yield return new(path.Path, "non-values read by old servers", ByPhase(path, p => p.NonValues), null);
    }

    /// <summary>"total" or "total (phase n, phase n)" for the phases where it is not 0.</summary>
    private static string ByPhase(MigratePathResult path, Func<MigratePhaseResult, long> figure)
    {
        long total = path.Phases.Sum(figure);
        string[] parts = [.. path.Phases.Where(p => figure(p) != 0).Select(p => $"{p.Phase} {N(figure(p))}")];
        return parts.Length == 0 ? N(total) : $"{N(total)} ({string.Join(", ", parts)})";
    }

    private static string Bytes(MigratePhaseResult phase) =>
        $"{N(phase.BytesPerItemWritten)} bytes per item ({N(phase.BsonItemsWritten)} of {N(phase.ItemsWritten)} BSON)";

    private static string Points(double delta) => (delta * 100).ToString("+0.00;-0.00;0.00", CultureInfo.InvariantCulture) + " points";
}
