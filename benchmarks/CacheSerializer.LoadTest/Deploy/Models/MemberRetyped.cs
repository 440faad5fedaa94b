using System.Globalization;
using ProtoBuf;

namespace CacheSerializer.LoadTest.Deploy.Models;

/// <summary>A member retyped: build 1's price is int cents, build 2's is a decimal amount under the same field number,
/// the money change real code makes. protobuf-net writes a decimal as a sub-message, so without the fingerprint each
/// build would fail to read, or misread, the other's field 2.</summary>
internal static class MemberRetyped
{
    private const int Alias = 13;

    /// <summary>Gets build 1.</summary>
    public static DeployBuild Build1 { get; } = new DeployBuild<V1>(
        1, new Dictionary<Type, int> { [typeof(V1)] = Alias }, (k, version) => new V1 { Id = k, Price = Cents(k, version) },
        v => string.Create(CultureInfo.InvariantCulture, $"Price {v.Id} {v.Price} cents"));

    /// <summary>Gets build 2.</summary>
    public static DeployBuild Build2 { get; } = new DeployBuild<V2>(
        2, new Dictionary<Type, int> { [typeof(V2)] = Alias }, (k, version) => new V2 { Id = k, Price = Cents(k, version) / 100m },
        v => string.Create(CultureInfo.InvariantCulture, $"Price {v.Id} {v.Price:0.00} amount"));

    // Each version of a key has its own price (a thousand cents more per version), so a value names its version.
    private static int Cents(int k, int version) => (k * 100) + 99 + (version * 1000);

    /// <summary>Build 1's price.</summary>
    [ProtoContract]
    public sealed class V1
    {
        /// <summary>Gets or sets the id.</summary>
        [ProtoMember(1)]
        public int Id { get; set; }

        /// <summary>Gets or sets the price in cents.</summary>
        [ProtoMember(2)]
        public int Price { get; set; }
    }

    /// <summary>Build 2's price: field 2 is now a decimal amount.</summary>
    [ProtoContract]
    public sealed class V2
    {
        /// <summary>Gets or sets the id.</summary>
        [ProtoMember(1)]
        public int Id { get; set; }

        /// <summary>Gets or sets the price as an amount.</summary>
        [ProtoMember(2)]
        public decimal Price { get; set; }
    }
}
