using System.Globalization;
using System.Text;

namespace CacheSerializer;

/// <summary>
/// Keeps the contracts an application caches as text, to commit beside its tests, and names what a deploy would turn
/// into misses: each type whose entries, written by the build that made the snapshot, this build will not read.
/// </summary>
/// <example>
/// In the application's test suite (docs/format.md, "Know before deploying"):
/// <code>
/// var contracts = new ProtobufTranscoder().DescribeContracts([typeof(Product), typeof(Order)]);
/// var changes = ContractSnapshot.Compare(File.ReadAllText("cache-contracts.txt"), contracts);
/// Assert.True(changes.Count == 0, string.Join("\n", changes)); // after a deliberate change: ContractSnapshot.Write(contracts) into the file
/// </code>
/// </example>
public static class ContractSnapshot
{
    private const string TypePrefix = "type ";
    private const string Indent = "  ";

    /// <summary>Writes <paramref name="contracts"/> as snapshot text: one block per type, sorted by name, every description line indented.</summary>
    /// <param name="contracts">The contracts, from <see cref="ProtobufTranscoder.DescribeContracts"/>.</param>
    /// <returns>The snapshot, with '\n' line ends.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="contracts"/> is null.</exception>
    public static string Write(IEnumerable<CacheContract> contracts)
    {
        ArgumentNullException.ThrowIfNull(contracts);
        var text = new StringBuilder("# CacheSerializer contracts: what each cached type's items are written under (ContractSnapshot).\n");
        foreach (CacheContract contract in contracts.OrderBy(contract => contract.Name, StringComparer.Ordinal))
        {
            text.Append(TypePrefix).Append(contract.Name).Append(" 0x").Append(contract.Fingerprint.ToString("X8", CultureInfo.InvariantCulture)).Append('\n');
            foreach (string line in contract.Description.Split('\n', StringSplitOptions.RemoveEmptyEntries))
            {
                text.Append(Indent).Append(line).Append('\n');
            }
        }

        return text.ToString();
    }

    /// <summary>
    /// Compares a snapshot with this build's contracts and returns every type whose entries one build would read as misses
    /// from the other: changed, added (no entries yet, nothing lost) or removed.
    /// </summary>
    /// <param name="snapshot">Text from <see cref="Write"/> (line ends '\n' or "\r\n").</param>
    /// <param name="current">This build's contracts.</param>
    /// <returns>The changes, sorted by type name; empty when every contract is the same.</returns>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    /// <exception cref="FormatException"><paramref name="snapshot"/> is not snapshot text.</exception>
    public static IReadOnlyList<ContractChange> Compare(string snapshot, IEnumerable<CacheContract> current)
    {
        ArgumentNullException.ThrowIfNull(snapshot);
        ArgumentNullException.ThrowIfNull(current);
        Dictionary<string, (uint Fingerprint, string Description)> before = Parse(snapshot);
        var after = current.ToDictionary(contract => contract.Name, contract => (contract.Fingerprint, contract.Description), StringComparer.Ordinal);
        var changes = new List<ContractChange>();
        foreach (string name in before.Keys.Union(after.Keys).Order(StringComparer.Ordinal))
        {
            bool had = before.TryGetValue(name, out (uint Fingerprint, string Description) old);
            bool has = after.TryGetValue(name, out (uint Fingerprint, string Description) now);
            if (had && has && old.Fingerprint == now.Fingerprint && old.Description == now.Description)
            {
                continue;
            }

            changes.Add(!had ? new ContractChange(name, ContractChangeKind.Added, [])
                : !has ? new ContractChange(name, ContractChangeKind.Removed, [])
                : new ContractChange(name, ContractChangeKind.Changed, Differences(old.Description, now.Description)));
        }

        return changes;
    }

    private static Dictionary<string, (uint Fingerprint, string Description)> Parse(string snapshot)
    {
        var contracts = new Dictionary<string, (uint, string)>(StringComparer.Ordinal);
        string? name = null;
        uint fingerprint = 0;
        var description = new StringBuilder();
        int number = 0;
        foreach (string raw in snapshot.Split('\n'))
        {
            number++;
            string line = raw.TrimEnd('\r');
            if (line.Length == 0 || line.StartsWith('#'))
            {
                continue;
            }

            if (line.StartsWith(Indent, StringComparison.Ordinal) && name is not null)
            {
                description.Append(line.AsSpan(Indent.Length)).Append('\n');
                continue;
            }

            if (!line.StartsWith(TypePrefix, StringComparison.Ordinal)
                || line.LastIndexOf(" 0x", StringComparison.Ordinal) is var at && at <= TypePrefix.Length
                || !uint.TryParse(line.AsSpan(at + 3), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out uint parsed))
            {
                throw new FormatException($"Line {number} of the contract snapshot is neither 'type <name> 0x<fingerprint>' nor an indented description line: '{line}'.");
            }

            Flush();
            name = line[TypePrefix.Length..at];
            fingerprint = parsed;
        }

        Flush();
        return contracts;

        void Flush()
        {
            if (name is not null)
            {
                contracts[name] = (fingerprint, description.ToString());
                description.Clear();
            }
        }
    }

    // Line by line, keyed so that a member reads as "#0 member 3: System.String -> System.Int32".
    private static List<string> Differences(string before, string after)
    {
        Dictionary<string, string> old = Lines(before);
        Dictionary<string, string> now = Lines(after);
        var differences = new List<string>();
        foreach (string key in old.Keys.Union(now.Keys))
        {
            bool had = old.TryGetValue(key, out string? was);
            bool has = now.TryGetValue(key, out string? @is);
            if (had && has && was == @is)
            {
                continue;
            }

            differences.Add(!had ? $"{key} added: {@is}" : !has ? $"{key} removed (was {was})" : $"{key}: {was} -> {@is}");
        }

        return differences.Count > 0 ? differences : ["the fingerprint differs (the description is the same: written by another version of CacheSerializer's description)"];
    }

    private static Dictionary<string, string> Lines(string description)
    {
        var lines = new Dictionary<string, string>(StringComparer.Ordinal);
        string message = "";
        foreach (string line in description.Split('\n', StringSplitOptions.RemoveEmptyEntries))
        {
            if (line.StartsWith('#'))
            {
                message = line.Split(' ')[0];
                lines[message] = line;
            }
            else if (line.StartsWith(Indent, StringComparison.Ordinal) && line.IndexOf(':', StringComparison.Ordinal) is > 0 and var colon)
            {
                lines[$"{message} member {line[Indent.Length..colon]}"] = line[(colon + 2)..];
            }
            else if (line != "}")
            {
                int space = line.IndexOf(' ', StringComparison.Ordinal);
                lines[space > 0 ? line[..space] : line] = space > 0 ? line[(space + 1)..] : line;
            }
        }

        return lines;
    }
}
