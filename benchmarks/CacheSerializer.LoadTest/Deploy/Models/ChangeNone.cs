using System.Globalization;
using ProtoBuf;

namespace CacheSerializer.LoadTest.Deploy.Models;

/// <summary>No change: build 2's class is another class (another name) with the same contract as build 1's, under the same alias.</summary>
internal static class ChangeNone
{
    private const int Alias = 11;

    /// <summary>Gets build 1.</summary>
    public static DeployBuild Build1 { get; } = new DeployBuild<V1>(
        1, new Dictionary<Type, int> { [typeof(V1)] = Alias }, (k, version) => new V1 { Id = k, Name = Name(k, version) }, v => Text(v.Id, v.Name));

    /// <summary>Gets build 2.</summary>
    public static DeployBuild Build2 { get; } = new DeployBuild<V2>(
        2, new Dictionary<Type, int> { [typeof(V2)] = Alias }, (k, version) => new V2 { Id = k, Name = Name(k, version) }, v => Text(v.Id, v.Name));

    private static string Name(int k, int version) => string.Create(CultureInfo.InvariantCulture, $"product {k} v{version}");

    private static string Text(int id, string? name) => string.Create(CultureInfo.InvariantCulture, $"Product {id} '{name}'");

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

    /// <summary>Build 2's product: renamed class, same members.</summary>
    [ProtoContract]
    public sealed class V2
    {
        /// <summary>Gets or sets the id.</summary>
        [ProtoMember(1)]
        public int Id { get; set; }

        /// <summary>Gets or sets the name.</summary>
        [ProtoMember(2)]
        public string? Name { get; set; }
    }
}
