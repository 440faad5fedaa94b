namespace CacheSerializer.Protobuf;

/// <summary>Excludes a member from serialization even when another attribute (such as <c>[DataMember]</c>) would include it.</summary>
/// <remarks>Same name and meaning as protobuf-net's <c>ProtoBuf.ProtoIgnoreAttribute</c>, which is also honoured.</remarks>
[AttributeUsage(AttributeTargets.Field | AttributeTargets.Property, AllowMultiple = false, Inherited = true)]
public sealed class ProtoIgnoreAttribute : Attribute
{
}
