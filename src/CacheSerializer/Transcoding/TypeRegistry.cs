using System.Collections.Concurrent;
using System.Collections.Frozen;
using System.Diagnostics.CodeAnalysis;

namespace CacheSerializer.Transcoding;

/// <summary>
/// The types an object payload's header may name: aliases (fixed at construction) and stable names (registered at
/// construction, or learned when the transcoder writes a type or the caller reads one as its own T).
/// </summary>
internal sealed class TypeRegistry
{
    private readonly FrozenDictionary<int, Type> _byAlias;
    private readonly FrozenDictionary<Type, int> _aliases;
    private readonly ConcurrentDictionary<string, Type> _byName = new(StringComparer.Ordinal);

    public TypeRegistry(IReadOnlyDictionary<Type, int> aliases)
    {
        _aliases = aliases.ToFrozenDictionary();
        _byAlias = aliases.ToFrozenDictionary(pair => pair.Value, pair => pair.Key);
    }

    public byte[] HeaderFor(Type type, string name) =>
        _aliases.TryGetValue(type, out var alias) ? TypeHeader.ForAlias(alias) : TypeHeader.ForName(name);

    /// <summary>Makes <paramref name="name"/> resolve to <paramref name="type"/>; a name already taken by another type is an error.</summary>
    public void AddName(string name, Type type)
    {
        var existing = _byName.GetOrAdd(name, type);
        if (existing != type)
        {
            throw new TranscoderException(
                $"Two types are stored under the name '{name}': {existing} and {type}. A payload could not say which one it holds; "
                + "rename one of them, or keep only one of them in the cache.",
                null,
                type);
        }
    }

    public bool TryFind(string name, [NotNullWhen(true)] out Type? type) => _byName.TryGetValue(name, out type);

    public bool TryFind(int alias, [NotNullWhen(true)] out Type? type) => _byAlias.TryGetValue(alias, out type);
}
