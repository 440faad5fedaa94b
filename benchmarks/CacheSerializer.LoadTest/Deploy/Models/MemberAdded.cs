using System.Globalization;
using ProtoBuf;

namespace CacheSerializer.LoadTest.Deploy.Models;

/// <summary>A member added: build 2's product has tags. Without the fingerprint, build 2 would read build 1's items with
/// no tags (and build 1 would skip build 2's tags): values that are not the ones either build's factory makes.</summary>
internal static class MemberAdded
{
    private const int Alias = 12;

    /// <summary>Gets build 1.</summary>
    public static DeployBuild Build1 { get; } = new DeployBuild<V1>(
        1, new Dictionary<Type, int> { [typeof(V1)] = Alias }, (k, version) => new V1 { Id = k, Name = Name(k, version) },
        v => string.Create(CultureInfo.InvariantCulture, $"Product {v.Id} '{v.Name}'"));

    /// <summary>Gets build 2.</summary>
    public static DeployBuild Build2 { get; } = new DeployBuild<V2>(
        2, new Dictionary<Type, int> { [typeof(V2)] = Alias }, (k, version) => new V2 { Id = k, Name = Name(k, version), Tags = ["new", $"t{k % 7}"] },
        v => string.Create(CultureInfo.InvariantCulture, $"Product {v.Id} '{v.Name}' tags [{string.Join(",", v.Tags)}]"));

    private static string Name(int k, int version) => string.Create(CultureInfo.InvariantCulture, $"product {k} v{version}");

    /// <summary>Build 1's product.</summary>
    [ProtoContract]
    public sealed class V1
    {
        /// <summary>Gets or sets the id.</summary>
        [ProtoMember(1)]
        public int Id { get; set; }

        /// <summary>Gets or sets the name.</summary>
        [ProtoMember(2)]
        public string? Name { get; set; }
    }

    /// <summary>Build 2's product: one member more.</summary>
    [ProtoContract]
    public sealed class V2
    {
        /// <summary>Gets or sets the id.</summary>
        [ProtoMember(1)]
        public int Id { get; set; }

        /// <summary>Gets or sets the name.</summary>
        [ProtoMember(2)]
        public string? Name { get; set; }

        /// <summary>Gets or sets the tags (never empty in the values the factory makes).</summary>
        [ProtoMember(3)]
        public List<string> Tags { get; set; } = [];
    }
}
