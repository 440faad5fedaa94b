namespace CacheSerializer.LoadTest.Deploy;

/// <summary>What build 2 of the models changed in the contract of a cached type, one rolling deploy per kind.</summary>
internal enum ChangeKind
{
    /// <summary>Nothing: build 2's class has another name but the same contract; every item reads across builds.</summary>
    None,

    /// <summary>Build 2 added a member: a new contract, so each build's items are unreadable to the other.</summary>
    MemberAdded,

    /// <summary>Build 2 changed a member's type (int cents to decimal): a new contract, unreadable across builds.</summary>
    MemberRetyped,

    /// <summary>Build 2 removed a subtype: items of the base type still read across builds, items of the subtype are of
    /// a type build 2 does not know.</summary>
    SubtypeRemoved,
}
