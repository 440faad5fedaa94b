// Stand-ins for protobuf-net's own attribute types (which do not restore here): same namespace and names, so the engine
// must recognise them by full name, exactly as it would recognise protobuf-net's real ones in an annotated model assembly.
#pragma warning disable SA1402, SA1649, CA1019, CA1813
namespace ProtoBuf
{
    [AttributeUsage(AttributeTargets.Class | AttributeTargets.Struct)]
    public sealed class ProtoContractAttribute : Attribute
    {
        public bool SkipConstructor { get; set; }
    }

    [AttributeUsage(AttributeTargets.Property | AttributeTargets.Field)]
    public sealed class ProtoMemberAttribute : Attribute
    {
        public ProtoMemberAttribute(int tag) => Tag = tag;

        public int Tag { get; }

        public bool IsPacked { get; set; }

        public bool OverwriteList { get; set; }

        public string? Name { get; set; }
    }

    [AttributeUsage(AttributeTargets.Class, AllowMultiple = true)]
    public sealed class ProtoIncludeAttribute : Attribute
    {
        public ProtoIncludeAttribute(int tag, Type knownType)
        {
            Tag = tag;
            KnownType = knownType;
        }

        public int Tag { get; }

        public Type KnownType { get; }
    }

    [AttributeUsage(AttributeTargets.Property | AttributeTargets.Field)]
    public sealed class ProtoIgnoreAttribute : Attribute
    {
    }
}

namespace CacheSerializer.Tests.Protobuf.ProtobufNetModel
{
    using ProtoBuf;

    [ProtoContract]
    [ProtoInclude(10, typeof(PnDerived))]
    public class PnBase
    {
        [ProtoMember(1)] public int Id { get; set; }

        [ProtoMember(2, IsPacked = true)] public List<int>? Values { get; set; }

        [ProtoIgnore] public string? Ignored { get; set; }
    }

    [ProtoContract(SkipConstructor = true)]
    public sealed class PnDerived : PnBase
    {
        public PnDerived() => ConstructorRan = true;

        [ProtoMember(1, Name = "extra")] public string? Extra { get; set; }

        public bool ConstructorRan { get; }
    }
}
