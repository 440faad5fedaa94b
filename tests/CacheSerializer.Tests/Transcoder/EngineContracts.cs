using CacheSerializer.Protobuf;

namespace CacheSerializer.Tests.Transcoder.Contracts;

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

// Derives from a contract without being declared by [ProtoInclude]: storing it would drop its level.
public record UndeclaredFolder : Folder
{
    public int Extra { get; init; }
}

// A collection subclass with a member of its own: protobuf-net would store the list and drop Title.
[Serializable]
public class TitledList : List<int>
{
    public string? Title { get; set; }
}

internal static class EngineSamples
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
