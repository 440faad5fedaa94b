using System.Collections.Frozen;
using System.Reflection;
using System.Runtime.Serialization;

namespace CacheSerializer.Transcoding;

// SerializationBinder is obsolete with the rest of formatter-based serialization (SYSLIB0050/0051); it is the one hook
// BinaryFormatter offers to refuse a type before creating it, which is exactly what the fallback needs.
#pragma warning disable SYSLIB0050, SYSLIB0051

/// <summary>
/// Maps the type names of a BinaryFormatter stream to types of the allowlist, and refuses every other name before
/// BinaryFormatter creates anything. Names are matched against the allowlist; no name is ever passed to Type.GetType.
/// </summary>
internal sealed class AllowlistBinder : SerializationBinder
{
    private readonly FrozenDictionary<(string TypeName, string Assembly), Type> _allowed;
    private readonly FrozenSet<Type> _types;
    private readonly uint _flags;

    public AllowlistBinder(IEnumerable<Type> allowed, uint flags = TranscoderFlags.BinaryFormatter)
    {
        _flags = flags;
        _types = allowed.ToFrozenSet();
        _allowed = _types.ToFrozenDictionary(type => (type.FullName!, type.Assembly.GetName().Name!));
        ForWriting = new WriteChecker(this);
    }

    /// <summary>Gets a binder that checks, while writing, that every type in the graph is on the allowlist.</summary>
    public SerializationBinder ForWriting { get; }

    public bool Allows(Type type) => _types.Contains(type);

    public override Type BindToType(string assemblyName, string typeName)
    {
        // The assembly is compared by simple name, so an app's version bump keeps its entries readable.
        string simpleName = new AssemblyName(assemblyName).Name ?? assemblyName;
        if (_allowed.TryGetValue((typeName, simpleName), out Type? type))
        {
            return type;
        }

        throw ThrowHelper.BinaryFormatterRefused(_flags, typeName, assemblyName, writing: false);
    }

    private sealed class WriteChecker(AllowlistBinder owner) : SerializationBinder
    {
        public override void BindToName(Type serializedType, out string? assemblyName, out string? typeName)
        {
            if (!owner.Allows(serializedType))
            {
                throw ThrowHelper.BinaryFormatterRefused(
                    owner._flags, serializedType.FullName ?? serializedType.Name, serializedType.Assembly.GetName().Name ?? "?", writing: true);
            }

            // null, null: BinaryFormatter writes the type's own names.
            assemblyName = null;
            typeName = null;
        }

        public override Type BindToType(string assemblyName, string typeName) => owner.BindToType(assemblyName, typeName);
    }
}
