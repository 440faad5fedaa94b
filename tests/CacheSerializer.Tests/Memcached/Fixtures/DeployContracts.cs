using ProtoBuf;

namespace CacheSerializer.Tests.Memcached.Fixtures;

/// <summary>An order as the build being replaced stores it.</summary>
[ProtoContract]
public sealed class OrderBefore
{
    [ProtoMember(1)]
    public string? Name { get; set; }
}

/// <summary>The same order in the new build: a member was added, so its contract (and fingerprint) differs.</summary>
[ProtoContract]
public sealed class OrderAfter
{
    [ProtoMember(1)]
    public string? Name { get; set; }

    [ProtoMember(2)]
    public int Quantity { get; set; }
}
