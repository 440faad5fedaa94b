using ProtoBuf.Meta;
using static CacheSerializer.Transcoding.ProtobufNet.ContractTypes;

namespace CacheSerializer.Transcoding.ProtobufNet;

/// <summary>
/// Everything of the package that touches protobuf-net, behind one door: the model the transcoder builds for itself
/// (<see cref="ProtobufNetModel"/>), the guards run on a type before its first object is stored (<see cref="ContractGuards"/>),
/// the description its fingerprint is the hash of (<see cref="ContractDescriber"/>), and the calls that write and read a
/// body (<see cref="TypeBody"/>). protobuf-net owns the wire format; this part decides which model, what it is configured
/// with, and what is refused before protobuf-net could lose data.
/// </summary>
internal sealed class ProtobufNetAdapter
{
    private readonly TypeModel _model;

    public ProtobufNetAdapter(TypeModel model) => _model = model;

    /// <summary>See <see cref="ProtobufNetModel.Create"/>.</summary>
    public static RuntimeTypeModel CreateModel(bool nullWrappedCollections) => ProtobufNetModel.Create(nullWrappedCollections);

    /// <summary>Whether this protobuf-net lets the transcoder apply the null-wrapped layout (true for 3.4.40).</summary>
    public static bool NullWrappingAvailable => ProtobufNetModel.NullWrappingAvailable;

    /// <summary>
    /// Runs every guard on <paramref name="type"/>, the runtime type of a value about to be stored (or the type a read asks
    /// for), and returns why it cannot be stored faithfully, or <see langword="null"/>.
    /// </summary>
    public TranscoderException? Refuse(Type type) => new ContractGuards(_model).CheckRoot(type);

    /// <summary>Creates the writer and reader of <paramref name="type"/>'s bodies (call after <see cref="Refuse"/> found nothing).</summary>
    public TypeBody CreateBody(Type type) => TypeBody.Create(_model, type);

    /// <summary>
    /// Returns the canonical description of <paramref name="type"/>'s contract (call after <see cref="Refuse"/> found
    /// nothing): what its fingerprint is the hash of. A compiled model (not a <see cref="RuntimeTypeModel"/>) cannot be
    /// read, so its description names the model and the type only, and a contract change under it goes unseen.
    /// </summary>
    public string Describe(Type type) =>
        _model is RuntimeTypeModel runtime
            ? ContractDescriber.Describe(runtime, type)
            : $"{ContractDescriber.Version}\ncompiled model {_model.GetType().FullName}\nroot {StableTypeName.Of(type)}\n";

    /// <summary>
    /// Returns the types an entry read as <paramref name="type"/> may hold: the root of its inheritance chain and every
    /// subtype reachable from that root through the model's includes; just the type itself when it has none.
    /// </summary>
    public IEnumerable<Type> FamilyOf(Type type)
    {
        if (_model is not RuntimeTypeModel runtime || !IsContract(runtime, type))
        {
            return [type];
        }

        var family = new List<Type>();
        var pending = new Stack<MetaType>([FamilyRoot(runtime[type])]);
        while (pending.TryPop(out MetaType? meta))
        {
            family.Add(meta.Type);
            foreach (SubType subType in meta.GetSubtypes())
            {
                pending.Push(subType.DerivedType);
            }
        }

        return family;
    }
}
