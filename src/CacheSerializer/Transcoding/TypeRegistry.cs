using System.Collections.Concurrent;
using System.Collections.Frozen;
using System.Diagnostics.CodeAnalysis;

namespace CacheSerializer.Transcoding;

/// <summary>
/// The types an object payload's header may name: aliases (fixed at construction), stable names and name hashes
/// (registered at construction, or learned when the transcoder writes a type or the caller reads one as its own T).
/// </summary>
/// <remarks>
/// A name or hash already taken by another type is refused when the second type is first used, so a header always
/// names exactly one type. Google.Protobuf messages are known by name; protobuf-net types by name and hash.
/// </remarks>
internal sealed class TypeRegistry
{
    private readonly FrozenDictionary<int, Type> _byAlias;
    private readonly FrozenDictionary<Type, int> _aliases;
    private readonly ConcurrentDictionary<string, Type> _byName = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<uint, (Type Type, bool Aliased)> _byHash = new();

    public TypeRegistry(IReadOnlyDictionary<Type, int> aliases)
    {
        _aliases = aliases.ToFrozenDictionary();
        _byAlias = aliases.ToFrozenDictionary(pair => pair.Value, pair => pair.Key);
    }

    /// <summary>The header of a Google.Protobuf message: its alias, else its descriptor's full name; then its fingerprint.</summary>
    public byte[] MessageHeaderFor(Type type, string name, uint fingerprint) =>
        _aliases.TryGetValue(type, out int alias) ? TypeHeader.ForAlias(alias, fingerprint) : TypeHeader.ForName(name, fingerprint);

    /// <summary>The header of a protobuf-net type: its alias, else the hash of its stable name; then its fingerprint.</summary>
    public byte[] ContractHeaderFor(Type type, string name, uint fingerprint) =>
        _aliases.TryGetValue(type, out int alias) ? TypeHeader.ForAlias(alias, fingerprint) : TypeHeader.ForHash(StableTypeName.Hash(name), fingerprint);

    /// <summary>Makes <paramref name="name"/> resolve to <paramref name="type"/>; a name already taken by another type is an error.</summary>
    public void AddName(string name, Type type)
    {
        Type existing = _byName.GetOrAdd(name, type);
        if (existing != type)
        {
            throw ThrowHelper.NameTaken(name, existing, type);
        }
    }

    /// <summary>
    /// Makes a protobuf-net type resolve by its stable name and by that name's hash. A hash taken by another type is an
    /// error, unless one of the two has an alias (the way out of a clash): an aliased type is written by its alias, and
    /// keeps its hash only while no other type claims it (so its items written before the alias still read).
    /// </summary>
    public void AddContract(string name, Type type)
    {
        AddName(name, type);
        uint hash = StableTypeName.Hash(name);
        bool aliased = _aliases.ContainsKey(type);
        (Type Type, bool Aliased) entry = _byHash.AddOrUpdate(
            hash,
            (type, aliased),
            (_, existing) => existing.Type == type || aliased || !existing.Aliased ? existing : (type, aliased));
        if (entry.Type != type && !aliased && !entry.Aliased)
        {
            throw ThrowHelper.HashTaken(hash, entry.Type, type);
        }
    }

    public bool TryFind(TypeKey key, [NotNullWhen(true)] out Type? type)
    {
        if (key.Alias != 0)
        {
            return _byAlias.TryGetValue(key.Alias, out type);
        }

        if (key.Name is not null)
        {
            return _byName.TryGetValue(key.Name, out type);
        }

        type = _byHash.TryGetValue(key.Hash, out (Type Type, bool Aliased) entry) ? entry.Type : null;
        return type is not null;
    }
}
