using CacheSerializer.LoadTest.Checking;

namespace CacheSerializer.LoadTest.Deploy.Models;

/// <summary>The two builds of the models of each change kind, in one process: each build's transcoder gives its own
/// class the alias both builds share, so an item's header names the same type in both builds, with its build's
/// contract fingerprint, as two builds of one application would write it.</summary>
internal static class DeployModels
{
    /// <summary>Returns the two builds of a change kind.</summary>
    /// <param name="kind">The change kind.</param>
    /// <returns>Build 1 and build 2.</returns>
    public static (DeployBuild Build1, DeployBuild Build2) For(ChangeKind kind) => kind switch
    {
        ChangeKind.None => (ChangeNone.Build1, ChangeNone.Build2),
        ChangeKind.MemberAdded => (MemberAdded.Build1, MemberAdded.Build2),
        ChangeKind.MemberRetyped => (MemberRetyped.Build1, MemberRetyped.Build2),
        _ => (SubtypeRemoved.Build1, SubtypeRemoved.Build2),
    };

    /// <summary>Returns the reasons an item is unreadable across the builds of a change kind: what the deliberate contract
    /// change explains (any other unreadable item is a corruption).</summary>
    /// <param name="kind">The change kind.</param>
    /// <returns>The reasons, as the client metric's tags.</returns>
    public static IReadOnlySet<string> ExpectedUnreadable(ChangeKind kind) => kind switch
    {
        ChangeKind.None => new HashSet<string>(StringComparer.Ordinal),
        ChangeKind.MemberAdded or ChangeKind.MemberRetyped => new HashSet<string>(StringComparer.Ordinal) { UnreadableReasons.OtherContract },
        _ => new HashSet<string>(StringComparer.Ordinal) { UnreadableReasons.UnknownType },
    };

    /// <summary>Returns what a change kind changes, for the report.</summary>
    /// <param name="kind">The change kind.</param>
    /// <returns>A short description.</returns>
    public static string Describe(ChangeKind kind) => kind switch
    {
        ChangeKind.None => "build 2 renames the class, same contract: items read across builds",
        ChangeKind.MemberAdded => "build 2 adds a member (tags): each build's items are of another contract for the other",
        ChangeKind.MemberRetyped => "build 2 retypes a member (int cents to decimal amount, same field number): another contract",
        _ => "build 2 removes a subtype (bundle, every fourth key): products read across builds, bundles are an unknown type to build 2",
    };
}
