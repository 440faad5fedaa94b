using CacheSerializer.Workloads.Contenders;
using CacheSerializer.Workloads.Generation;
using CacheSerializer.Workloads.Models;
using CacheSerializer.Workloads.Peers;

namespace CacheSerializer.LoadTest.Mix;

/// <summary>
/// The values of the load test, modelled on the production report: mostly small objects by count, a tail of large
/// folder trees that holds most of the bytes (see docs/loadtest.md, "The mix").
/// </summary>
/// <remarks>
/// Each key holds one shape and one of its seeded variants for the whole run (a cache key names one object, e.g. one
/// user's folder tree, whose size stays about the same), chosen from the seed; each write of the key stores that
/// variant with a new stamp. So every contender ends a pass holding the same objects under the same keys, and
/// memcached's bytes compare like for like. Every graph comes from the shared workload factory,
/// so the load test stores the same kinds of objects the benchmarks measure. The peers (MessagePack, MemoryPack) are
/// handed the same values as their own model classes (<see cref="For"/>): mapped once from the same templates, stamped
/// and checked on their own types, so they do no mapping work that the others do not.
/// </remarks>
internal sealed class ValueMix
{
    /// <summary>The number of seeded variants of every shape.</summary>
    public const int VariantsPerShape = 16;

    private readonly int[] _shapeOfKey;
    private readonly int[] _variantOfKey;
    private readonly Func<ValueMix>? _peerForm;
    private ValueMix? _peer;

    private ValueMix(IReadOnlyList<ValueShape> shapes, int[] shapeOfKey, int[] variantOfKey)
    {
        Shapes = shapes;
        _shapeOfKey = shapeOfKey;
        _variantOfKey = variantOfKey;
    }

    private ValueMix(IReadOnlyList<ShapeDefinition> definitions, int keys, ulong seed)
    {
        Shapes = [.. definitions.Select(d => d.Plain)];
        IReadOnlyList<ValueShape> shapes = Shapes;
        int[] shapeOfKey = _shapeOfKey = new int[keys];
        int[] variantOfKey = _variantOfKey = new int[keys];
        _peerForm = () => new ValueMix([.. definitions.Select(d => d.Peer())], shapeOfKey, variantOfKey);
        var random = new SeededRandom(Mix64(seed, 0x4B45_5953));
        for (int key = 0; key < keys; key++)
        {
            double roll = random.NextDouble();
            int shape = 0;
            while (shape < shapes.Count - 1 && roll >= shapes[shape].Share)
            {
                roll -= shapes[shape].Share;
                shape++;
            }

            _shapeOfKey[key] = shape;
            _variantOfKey[key] = random.Next(0, VariantsPerShape);
        }
    }

    /// <summary>Gets the shapes, in the order of the table in docs/loadtest.md.</summary>
    public IReadOnlyList<ValueShape> Shapes { get; }

    /// <summary>Gets the number of keys.</summary>
    public int Keys => _shapeOfKey.Length;

    /// <summary>Builds the mix of a profile for <paramref name="keys"/> keys.</summary>
    /// <param name="profile">The profile.</param>
    /// <param name="keys">The size of the key space.</param>
    /// <param name="seed">The run's seed: the same seed gives the same keys, shapes and values.</param>
    /// <returns>The mix; its templates are built now (well under a second for the default profile, a few seconds for the seed profile).</returns>
    public static ValueMix Create(LoadProfile profile, int keys, ulong seed) =>
        profile == LoadProfile.Seed ? CreateSeed(keys, seed) : CreateDefault(keys, seed);

    /// <summary>Builds the default mix for <paramref name="keys"/> keys.</summary>
    /// <param name="keys">The size of the key space.</param>
    /// <param name="seed">The run's seed: the same seed gives the same keys, shapes and values.</param>
    /// <returns>The mix; its templates are built now (well under a second).</returns>
    public static ValueMix CreateDefault(int keys, ulong seed) => new(
    [
        RpcMessages("rpc message", 0.30, "2 ints, 3 strings", Variants(seed, 1, (s, _) => WorkloadFactory.RpcMessage(s))),
        RecordSets("records N=32", 0.20, "3 ints, 32 (id, text) records", Variants(seed, 2, (s, _) => WorkloadFactory.Records(32, s))),
        FolderCatalogs("folders", 0.15, "folder/document tree, ProtoInclude subtypes", Variants(seed, 3, (s, _) => WorkloadFactory.Folders(s))),
        RecordSets("records N=1024", 0.10, "3 ints, 1,024 records", Variants(seed, 4, (s, _) => WorkloadFactory.Records(1024, s))),
        UserFolderTrees("large folder tree", 0.25, "1,000-3,000 entries", Variants(seed, 5, (s, v) => WorkloadFactory.LargeObject(TreeEntries(v), s))),
    ], keys, seed);

    /// <summary>
    /// Builds the seed profile's mix: half user folder trees (entries with Guids, instants, enums, tags, permissions), half
    /// folder catalogs (folder and document subtypes nested in each other, versions, null and empty lists), each of
    /// <see cref="SeedTreeSize"/> entries or nodes, so BinaryFormatter + Deflate items average about 1 MB.
    /// </summary>
    /// <param name="keys">The size of the key space.</param>
    /// <param name="seed">The run's seed.</param>
    /// <returns>The mix.</returns>
    public static ValueMix CreateSeed(int keys, ulong seed) => new(
    [
        UserFolderTrees("user folder tree", 0.5, "5,000-11,000 entries", Variants(seed, 11, (s, v) => WorkloadFactory.LargeObject(SeedTreeSize(v), s))),
        FolderCatalogs("folder catalog", 0.5, "5,000-11,000 nested nodes", Variants(seed, 12, (s, v) => WorkloadFactory.LargeFolders(SeedTreeSize(v), s))),
    ], keys, seed);

    /// <summary>The number of entries of tree variant <paramref name="variant"/>: evenly from 1,000 to 3,000.</summary>
    /// <param name="variant">The variant, 0 to <see cref="VariantsPerShape"/> - 1.</param>
    /// <returns>The entry count.</returns>
    public static int TreeEntries(int variant) => 1000 + (variant * 2000 / (VariantsPerShape - 1));

    /// <summary>The number of entries or nodes of seed-profile variant <paramref name="variant"/>: evenly from 5,000 to 11,000.</summary>
    /// <param name="variant">The variant, 0 to <see cref="VariantsPerShape"/> - 1.</param>
    /// <returns>The count.</returns>
    public static int SeedTreeSize(int variant) => 5000 + (variant * 6000 / (VariantsPerShape - 1));

    /// <summary>Returns the mix as the contender's input needs it: the peer models for MessagePack and MemoryPack, else this one.</summary>
    /// <param name="input">The contender's input.</param>
    /// <returns>A mix with the same keys, shapes, variants and stamps.</returns>
    public ValueMix For(ContenderInput input)
    {
        if (input != ContenderInput.PeerModel || _peerForm is null)
        {
            return this;
        }

        return _peer ??= _peerForm();
    }

    /// <summary>Returns the shape key <paramref name="key"/> holds.</summary>
    /// <param name="key">The key's index.</param>
    /// <returns>The shape.</returns>
    public ValueShape ShapeOf(int key) => Shapes[_shapeOfKey[key]];

    /// <summary>Returns the variant key <paramref name="key"/> holds (every write of the key stores it, with a new stamp).</summary>
    /// <param name="key">The key's index.</param>
    /// <returns>The variant, 0 to <see cref="VariantsPerShape"/> - 1.</returns>
    public int VariantOf(int key) => _variantOfKey[key];

    /// <summary>Returns the number of keys holding each shape, in <see cref="Shapes"/> order.</summary>
    /// <returns>The counts.</returns>
    public int[] KeysPerShape()
    {
        int[] counts = new int[Shapes.Count];
        foreach (int shape in _shapeOfKey)
        {
            counts[shape]++;
        }

        return counts;
    }

    /// <summary>A 64-bit mix (SplitMix64's finalizer) of the run's seed and a stream number, so every stream is independent.</summary>
    /// <param name="seed">The run's seed.</param>
    /// <param name="stream">The stream (shape, user, key assignment).</param>
    /// <returns>The derived seed.</returns>
    public static ulong Mix64(ulong seed, ulong stream)
    {
        ulong z = seed + ((stream + 1) * 0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)) * 0xBF58_476D_1CE4_E5B9;
        z = (z ^ (z >> 27)) * 0x94D0_49BB_1331_11EB;
        return z ^ (z >> 31);
    }

    private static ShapeDefinition RpcMessages(string name, double share, string description, RpcMessage[] templates) => ShapeDefinition.Of(
        name, share, description, templates,
        static (t, stamp) => new RpcMessage { RequestId = stamp, Status = t.Status, Service = t.Service, Method = t.Method, Body = t.Body },
        PeerConvert.ToPeer,
        static (t, stamp) => new RpcMessagePeer { RequestId = stamp, Status = t.Status, Service = t.Service, Method = t.Method, Body = t.Body });

    private static ShapeDefinition RecordSets(string name, double share, string description, RecordSet[] templates) => ShapeDefinition.Of(
        name, share, description, templates,
        static (t, stamp) => new RecordSet { SchemaVersion = t.SchemaVersion, SourceId = t.SourceId, Sequence = stamp, Records = t.Records },
        PeerConvert.ToPeer,
        static (t, stamp) => new RecordSetPeer { SchemaVersion = t.SchemaVersion, SourceId = t.SourceId, Sequence = stamp, Records = t.Records });

    private static ShapeDefinition FolderCatalogs(string name, double share, string description, FolderCatalog[] templates) => ShapeDefinition.Of(
        name, share, description, templates,
        static (t, stamp) => new FolderCatalog { SchemaVersion = t.SchemaVersion, Tenant = $"{t.Tenant}#{stamp}", Built = t.Built, Roots = t.Roots },
        PeerConvert.ToPeer,
        static (t, stamp) => new FolderCatalogPeer { SchemaVersion = t.SchemaVersion, Tenant = $"{t.Tenant}#{stamp}", Built = t.Built, Roots = t.Roots });

    private static ShapeDefinition UserFolderTrees(string name, double share, string description, UserFolderTree[] templates) => ShapeDefinition.Of(
        name, share, description, templates,
        static (t, stamp) => new UserFolderTree { UserId = stamp, UserName = t.UserName, Loaded = t.Loaded, Entries = t.Entries },
        PeerConvert.ToPeer,
        static (t, stamp) => new UserFolderTreePeer { UserId = stamp, UserName = t.UserName, Loaded = t.Loaded, Entries = t.Entries });

    private static T[] Variants<T>(ulong seed, ulong shape, Func<ulong, int, T> create)
    {
        var variants = new T[VariantsPerShape];
        for (int v = 0; v < variants.Length; v++)
        {
            variants[v] = create(Mix64(seed, (shape << 16) | (uint)v), v);
        }

        return variants;
    }
}
