using ProtoBuf;

namespace CacheSerializer.Tests.Transcoding.Contracts;

// Three levels joined by [ProtoInclude], as the production team's cached folders were: the transcoder must name the
// runtime type, and a reader asking for the root must get the deepest type back.
[ProtoContract]
[ProtoInclude(10, typeof(Folder))]
public record Item
{
    [ProtoMember(1)]
    public string? Name { get; init; }

    [ProtoMember(2)]
    public List<string>? Tags { get; init; }

    public virtual bool Equals(Item? other) =>
        other is not null && other.GetType() == GetType() && Name == other.Name && SameList(Tags, other.Tags);

    public override int GetHashCode() => HashCode.Combine(Name, Tags?.Count);

    protected static bool SameList<T>(List<T>? a, List<T>? b) => a is null ? b is null : b is not null && a.SequenceEqual(b);
}

[ProtoContract]
[ProtoInclude(10, typeof(SharedFolder))]
public record Folder : Item
{
    [ProtoMember(1)]
    public List<Item>? Children { get; init; }

    public virtual bool Equals(Folder? other) => base.Equals(other) && SameList(Children, other!.Children);

    public override int GetHashCode() => base.GetHashCode();
}

[ProtoContract]
public record SharedFolder : Folder
{
    [ProtoMember(1)]
    public Version? Version { get; init; }

    [ProtoMember(2)]
    public int Owner { get; init; }

    public virtual bool Equals(SharedFolder? other) => base.Equals(other) && Version == other!.Version && Owner == other.Owner;

    public override int GetHashCode() => base.GetHashCode();
}

// Derives from a contract without being declared by [ProtoInclude]: storing it would drop its level. protobuf-net's
// analyzer flags this at build time (PBN0013, PBN0014); the trap is kept on purpose, to test the run-time guard.
#pragma warning disable PBN0013, PBN0014
public record UndeclaredFolder : Folder
{
    public int Extra { get; init; }
}
#pragma warning restore PBN0013, PBN0014

// A collection subclass with a member of its own: protobuf-net would store the list and drop Title.
[Serializable]
public class TitledList : List<int>
{
    public string? Title { get; set; }
}

internal static class Samples
{
    public static SharedFolder Tree() => new()
    {
        Name = "root",
        Tags = [],
        Owner = 42,
        Version = new Version(1, 2, 3),
        Children =
        [
            new Item { Name = "readme.md", Tags = ["doc"] },
            new Folder { Name = "src", Tags = null, Children = [] },
        ],
    };
}
