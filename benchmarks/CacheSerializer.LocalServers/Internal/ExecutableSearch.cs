namespace CacheSerializer.LocalServers.Internal;

/// <summary>Finds a server's executable on PATH, as a shell would.</summary>
internal static class ExecutableSearch
{
    /// <summary>The full path of <paramref name="name"/> in the first directory of <paramref name="path"/> (PATH's
    /// syntax; the process's PATH when null) that has it, or null.</summary>
    public static string? Find(string name, string? path = null)
    {
        foreach (string dir in (path ?? Environment.GetEnvironmentVariable("PATH") ?? string.Empty).Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
        {
            string candidate = Path.Combine(dir, name);
            if (File.Exists(candidate))
            {
                return candidate;
            }
        }

        return null;
    }
}
