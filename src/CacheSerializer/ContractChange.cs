namespace CacheSerializer;

/// <summary>How a cached type's contract differs between a snapshot and this build.</summary>
public enum ContractChangeKind
{
    /// <summary>The contract changed: each build reads the other's entries of the type as misses.</summary>
    Changed,

    /// <summary>The type is new in this build: it has no entries yet; the older build reads this build's as misses.</summary>
    Added,

    /// <summary>The type is no longer cached by this build; its entries expire unread.</summary>
    Removed,
}

/// <summary>One cached type whose entries a deploy turns into misses, and why (<see cref="ContractSnapshot.Compare"/>).</summary>
/// <param name="TypeName">The type's stable name.</param>
/// <param name="Kind">How its contract differs.</param>
/// <param name="Differences">For <see cref="ContractChangeKind.Changed"/>, each description line that differs, such as "#0 member 3: System.String -> System.Int32".</param>
public sealed record ContractChange(string TypeName, ContractChangeKind Kind, IReadOnlyList<string> Differences)
{
    /// <summary>Returns one line: the type, what happens to its entries, and the differences.</summary>
    public override string ToString() => Kind switch
    {
        ContractChangeKind.Changed => $"{TypeName}: entries are misses across the deploy ({string.Join("; ", Differences)})",
        ContractChangeKind.Added => $"{TypeName}: newly cached (the older build reads its entries as misses)",
        _ => $"{TypeName}: no longer cached (its entries expire unread)",
    };
}
