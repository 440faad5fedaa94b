namespace CacheSerializer.Transcoding;

/// <summary>What a type header names: exactly one of an alias, a stable name, or the hash of a stable name.</summary>
internal readonly record struct TypeKey(int Alias, string? Name, uint Hash)
{
    public static TypeKey ForAlias(int alias) => new(alias, null, 0);

    public static TypeKey ForName(string name) => new(0, name, 0);

    public static TypeKey ForHash(uint hash) => new(0, null, hash);

    public override string ToString() => Alias != 0 ? $"alias {Alias}" : Name is not null ? $"'{Name}'" : $"hash 0x{Hash:X8}";
}
