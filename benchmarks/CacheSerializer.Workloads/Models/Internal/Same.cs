namespace CacheSerializer.Workloads.Models.Internal;

/// <summary>The equality the workload types use, strict enough that "round-trips exactly" means what it says.</summary>
internal static class Same
{
    /// <summary>Same instant and same <see cref="DateTimeKind"/> (<see cref="DateTime.Equals(DateTime)"/> ignores the kind).</summary>
    public static bool Time(DateTime a, DateTime b) => a.Ticks == b.Ticks && a.Kind == b.Kind;

    /// <summary>Both null, or the same elements in the same order; null and empty differ.</summary>
    public static bool List<T>(List<T>? a, List<T>? b)
    {
        if (a is null || b is null)
        {
            return a is null && b is null;
        }

        return a.SequenceEqual(b);
    }

    /// <summary>A hash of a list's length, or -1 for null, enough for the rare hashing of a workload value.</summary>
    public static int ListHash<T>(List<T>? list) => list?.Count ?? -1;
}
