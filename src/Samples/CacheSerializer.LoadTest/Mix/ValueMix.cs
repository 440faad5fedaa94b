using CacheSerializer.Workloads.Generation;
using CacheSerializer.Workloads.Models;

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
/// so the load test stores the same kinds of objects the benchmarks measure.
/// </remarks>
internal sealed class ValueMix
{
    /// <summary>The number of seeded variants of every shape.</summary>
    public const int VariantsPerShape = 16;

    private readonly int[] _shapeOfKey;
    private readonly int[] _variantOfKey;

    private ValueMix(IReadOnlyList<ValueShape> shapes, int keys, ulong seed)
    {
        Shapes = shapes;
        _shapeOfKey = new int[keys];
        _variantOfKey = new int[keys];
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

    /// <summary>Builds the default mix for <paramref name="keys"/> keys.</summary>
    /// <param name="keys">The size of the key space.</param>
    /// <param name="seed">The run's seed: the same seed gives the same keys, shapes and values.</param>
    /// <returns>The mix; its templates are built now (well under a second).</returns>
    public static ValueMix CreateDefault(int keys, ulong seed)
    {
        ValueShape[] shapes =
        [
            new ValueShape<RpcMessage>(
                "rpc message", 0.30, "2 ints, 3 strings",
                Variants(seed, 1, (s, _) => WorkloadFactory.RpcMessage(s)),
                static (t, stamp) => new RpcMessage { RequestId = stamp, Status = t.Status, Service = t.Service, Method = t.Method, Body = t.Body }),
            new ValueShape<RecordSet>(
                "records N=32", 0.20, "3 ints, 32 (id, text) records",
                Variants(seed, 2, (s, _) => WorkloadFactory.Records(32, s)),
                static (t, stamp) => new RecordSet { SchemaVersion = t.SchemaVersion, SourceId = t.SourceId, Sequence = stamp, Records = t.Records }),
            new ValueShape<FolderCatalog>(
                "folders", 0.15, "folder/document tree, ProtoInclude subtypes",
                Variants(seed, 3, (s, _) => WorkloadFactory.Folders(s)),
                static (t, stamp) => new FolderCatalog { SchemaVersion = t.SchemaVersion, Tenant = $"{t.Tenant}#{stamp}", Built = t.Built, Roots = t.Roots }),
            new ValueShape<RecordSet>(
                "records N=1024", 0.10, "3 ints, 1,024 records",
                Variants(seed, 4, (s, _) => WorkloadFactory.Records(1024, s)),
                static (t, stamp) => new RecordSet { SchemaVersion = t.SchemaVersion, SourceId = t.SourceId, Sequence = stamp, Records = t.Records }),
            new ValueShape<UserFolderTree>(
                "large folder tree", 0.25, "1,000-3,000 entries",
                Variants(seed, 5, (s, v) => WorkloadFactory.LargeObject(TreeEntries(v), s)),
                static (t, stamp) => new UserFolderTree { UserId = stamp, UserName = t.UserName, Loaded = t.Loaded, Entries = t.Entries }),
        ];
        return new ValueMix(shapes, keys, seed);
    }

    /// <summary>The number of entries of tree variant <paramref name="variant"/>: evenly from 1,000 to 3,000.</summary>
    /// <param name="variant">The variant, 0 to <see cref="VariantsPerShape"/> - 1.</param>
    /// <returns>The entry count.</returns>
    public static int TreeEntries(int variant) => 1000 + (variant * 2000 / (VariantsPerShape - 1));

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
        var counts = new int[Shapes.Count];
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
