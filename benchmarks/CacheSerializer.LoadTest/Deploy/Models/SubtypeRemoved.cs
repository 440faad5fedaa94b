using System.Globalization;
using ProtoBuf;

namespace CacheSerializer.LoadTest.Deploy.Models;

/// <summary>
/// A subtype removed: build 1's product has a subtype (a bundle, every fourth key), build 2's has none and makes a plain
/// product for those keys too. An item names its exact type and is described with its bases only, so a plain product
/// reads across builds; a bundle is a type build 2 does not know (its alias is gone).
/// </summary>
/// <remarks>Build 1 reading build 2's plain product of a bundle key gets that plain product, faithfully: the value build
/// 2's factory made, which the report counts as an other build's value, not as a wrong one.</remarks>
internal static class SubtypeRemoved
{
    private const int BaseAlias = 14;
    private const int SubAlias = 15;

    /// <summary>Gets build 1.</summary>
    public static DeployBuild Build1 { get; } = new DeployBuild<Base1>(
        1, new Dictionary<Type, int> { [typeof(Base1)] = BaseAlias, [typeof(Sub1)] = SubAlias },
        (k, version) => k % 4 == 0 ? new Sub1 { Id = k, Name = Name(k, version), Parts = k / 4 } : new Base1 { Id = k, Name = Name(k, version) },
        v => v is Sub1 sub ? string.Create(CultureInfo.InvariantCulture, $"Bundle {sub.Id} '{sub.Name}' parts {sub.Parts}") : Text(v.Id, v.Name));

    /// <summary>Gets build 2.</summary>
    public static DeployBuild Build2 { get; } = new DeployBuild<Base2>(
        2, new Dictionary<Type, int> { [typeof(Base2)] = BaseAlias }, (k, version) => new Base2 { Id = k, Name = Name(k, version) }, v => Text(v.Id, v.Name));

    private static string Name(int k, int version) => string.Create(CultureInfo.InvariantCulture, $"product {k} v{version}");

    private static string Text(int id, string? name) => string.Create(CultureInfo.InvariantCulture, $"Product {id} '{name}'");

    /// <summary>Build 1's product, with its subtype.</summary>
    [ProtoContract]
    [ProtoInclude(10, typeof(Sub1))]
    public class Base1
    {
        /// <summary>Gets or sets the id.</summary>
        [ProtoMember(1)]
        public int Id { get; set; }

        /// <summary>Gets or sets the name.</summary>
        [ProtoMember(2)]
        public string? Name { get; set; }
    }

    /// <summary>Build 1's bundle.</summary>
    [ProtoContract]
    public sealed class Sub1 : Base1
    {
        /// <summary>Gets or sets the number of parts.</summary>
        [ProtoMember(1)]
        public int Parts { get; set; }
    }

    /// <summary>Build 2's product: the subtype is gone.</summary>
    [ProtoContract]
    public class Base2
    {
        /// <summary>Gets or sets the id.</summary>
        [ProtoMember(1)]
        public int Id { get; set; }

        /// <summary>Gets or sets the name.</summary>
        [ProtoMember(2)]
        public string? Name { get; set; }
    }
}
