using CacheSerializer.Workloads.Models;

namespace CacheSerializer.Workloads.Generation;

/// <summary>Builds every workload graph from its own fixed seed: the same call always returns an equal graph.</summary>
/// <remarks>
/// Each workload has its own seed so that changing one never shifts another. Instants are UTC with millisecond
/// precision (see <see cref="SeededRandom.NextUtcMilliseconds"/>); no value is chosen to suit any one format: numbers
/// span their ranges, text is drawn from a vocabulary, collections are null, empty or full in fixed proportions.
/// </remarks>
public static class WorkloadFactory
{
    /// <summary>The seed of <see cref="RpcMessage"/>'s published graph.</summary>
    public const ulong RpcMessageSeed = 0x5250_4331;

    /// <summary>The seed of <see cref="EightUInt64s"/>'s published graph.</summary>
    public const ulong EightUInt64sSeed = 0x5536_3438;

    /// <summary>The seed of <see cref="Records"/>'s published graphs.</summary>
    public const ulong RecordsSeed = 0x5245_4353;

    /// <summary>The seed of <see cref="Folders"/>'s published graph.</summary>
    public const ulong FoldersSeed = 0x464F_4C44;

    /// <summary>The seed of <see cref="LargeObject"/>'s published graph.</summary>
    public const ulong LargeObjectSeed = 0x4C41_5247;

    private static readonly DateTime Epoch = new(2015, 1, 1, 0, 0, 0, DateTimeKind.Utc);
    private static readonly DateTime Horizon = new(2025, 1, 1, 0, 0, 0, DateTimeKind.Utc);

    private static readonly string[] ContentTypes =
    [
        "application/pdf",
        "text/plain",
        "text/markdown",
        "image/png",
        "image/jpeg",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "application/zip",
    ];

    /// <summary>Builds the "rpc message": two ints and three strings, about 100 bytes as protobuf.</summary>
    /// <param name="seed">The seed; other seeds give other values of the same shape (e.g. one per key in a load test).</param>
    /// <returns>A new graph.</returns>
    public static RpcMessage RpcMessage(ulong seed = RpcMessageSeed)
    {
        var random = new SeededRandom(seed);
        var words = new WordGenerator(random, 64);
        return new RpcMessage
        {
            RequestId = random.Next(1, int.MaxValue),
            Status = random.Next(0, 600),
            Service = words.Phrase(20, '.'),
            Method = words.Phrase(24, '_'),
            Body = words.Phrase(40, ' '),
        };
    }

    /// <summary>Builds "eight uint64s", their magnitudes spread over every bit length.</summary>
    /// <param name="seed">The seed; other seeds give other values of the same shape.</param>
    /// <returns>A new graph.</returns>
    public static EightUInt64s EightUInt64s(ulong seed = EightUInt64sSeed)
    {
        var random = new SeededRandom(seed);
        return new EightUInt64s
        {
            A = random.NextUInt64OfRandomLength(),
            B = random.NextUInt64OfRandomLength(),
            C = random.NextUInt64OfRandomLength(),
            D = random.NextUInt64OfRandomLength(),
            E = random.NextUInt64OfRandomLength(),
            F = random.NextUInt64OfRandomLength(),
            G = random.NextUInt64OfRandomLength(),
            H = random.NextUInt64OfRandomLength(),
        };
    }

    /// <summary>Builds "records": three header ints, then <paramref name="count"/> (id, text) entries of 8 to 24 characters.</summary>
    /// <param name="count">The number of entries (the benchmarks use 1, 32 and 1,024).</param>
    /// <param name="seed">The seed; other seeds give other values of the same shape.</param>
    /// <returns>A new graph; for one seed, the first entries are the same whatever the count.</returns>
    public static RecordSet Records(int count, ulong seed = RecordsSeed)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        var random = new SeededRandom(seed);
        var words = new WordGenerator(random, 256);
        var set = new RecordSet
        {
            SchemaVersion = random.Next(1, 10),
            SourceId = random.Next(1, 100_000),
            Sequence = random.Next(0, int.MaxValue),
            Records = new List<Record>(count),
        };
        for (int i = 0; i < count; i++)
        {
            set.Records.Add(new Record { Id = random.Next(1, 10_000_000), Text = words.Phrase(random.Next(8, 25), ' ') });
        }

        return set;
    }

    /// <summary>Builds "folders": a tree of folders and documents with null and empty collections and versions.</summary>
    /// <param name="seed">The seed; other seeds give other trees of the same kind.</param>
    /// <returns>A new graph.</returns>
    public static FolderCatalog Folders(ulong seed = FoldersSeed)
    {
        var random = new SeededRandom(seed);
        var words = new WordGenerator(random, 200);
        FolderCatalog catalog = EmptyCatalog(random, words);
        for (int i = 0; i < 4; i++)
        {
            catalog.Roots.Add(Folder(random, words, depth: 0));
        }

        return catalog;
    }

    /// <summary>Builds the "large object": a user's folder tree of <paramref name="entries"/> entries.</summary>
    /// <param name="entries">The number of entries (the benchmarks use 2,000).</param>
    /// <param name="seed">The seed; other seeds give other trees of the same kind.</param>
    /// <returns>A new graph; parents come before their children.</returns>
    public static UserFolderTree LargeObject(int entries = 2000, ulong seed = LargeObjectSeed)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(entries);
        var random = new SeededRandom(seed);
        var words = new WordGenerator(random, 600);
        var tagWords = new WordGenerator(random, 40);
        int userId = random.Next(100_000, 10_000_000);
        int[] coworkers = Enumerable.Range(0, 20).Select(_ => random.Next(100_000, 10_000_000)).ToArray();
        var tree = new UserFolderTree
        {
            UserId = userId,
            UserName = words.Phrase(random.Next(8, 20), ' '),
            Loaded = random.NextUtcMilliseconds(Horizon, Horizon.AddDays(30)),
            Entries = new List<FolderEntry>(entries),
        };

        // Parents are chosen among the folders made so far (or the root), so paths share prefixes as real trees do.
        var folders = new List<(string Path, int Depth)> { ("", 0) };
        for (int i = 0; i < entries; i++)
        {
            (string parentPath, int depth) = folders[random.Next(0, folders.Count)];
            bool isFolder = depth < 8 && random.Chance(0.2);
            EntryKind kind = isFolder ? EntryKind.Folder : (EntryKind)random.Next(1, 7);
            string name = words.Phrase(random.Next(5, 41), random.Pick([' ', '_', '-']));
            string path = parentPath + "/" + name;
            DateTime created = random.NextUtcMilliseconds(Epoch, Horizon);
            var entry = new FolderEntry
            {
                Id = random.NextGuid(),
                OwnerId = random.Chance(0.85) ? userId : random.Pick(coworkers),
                Name = name,
                Path = path,
                Created = created,
                Modified = random.NextUtcMilliseconds(created, created.AddDays(400)),
                Kind = kind,
                IsFavorite = random.Chance(0.1),
                Size = isFolder ? 0 : random.NextInt64(1, 1L << random.Next(8, 34)),
            };
            int tagCount = random.Next(0, 6);
            for (int t = 0; t < tagCount; t++)
            {
                entry.Tags.Add(tagWords.Word());
            }

            int permissionCount = random.Next(0, 4);
            for (int p = 0; p < permissionCount; p++)
            {
                entry.Permissions.Add(new Permission { UserId = random.Pick(coworkers), Right = (AccessRight)random.Next(0, 4) });
            }

            tree.Entries.Add(entry);
            if (isFolder)
            {
                folders.Add((path, depth + 1));
            }
        }

        return tree;
    }

    /// <summary>
    /// Builds a large "folders" catalog of exactly <paramref name="nodes"/> nodes: the shape of <see cref="Folders"/> (folders
    /// and documents as <see cref="NodeBase"/> subtypes, Guids, instants, versions, null and empty lists), with wider and
    /// deeper folders, as a whole site's or tenant's tree is. The load test's seed profile stores these.
    /// </summary>
    /// <param name="nodes">The number of nodes, folders and documents together (at least 1).</param>
    /// <param name="seed">The seed; other seeds give other trees of the same kind.</param>
    /// <returns>A new graph.</returns>
    public static FolderCatalog LargeFolders(int nodes, ulong seed)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(nodes, 1);
        var random = new SeededRandom(seed);
        var words = new WordGenerator(random, 600);
        FolderCatalog catalog = EmptyCatalog(random, words);

        // Breadth first: each folder gets 2 to 12 children (a third of them folders) until the count is reached, so
        // the tree is as deep as its size makes it, and every folder ends with children, an empty list or null.
        var open = new Queue<FolderNode>();
        int made = 0;
        while (made < nodes)
        {
            FolderNode? parent = open.Count > 0 ? open.Dequeue() : null;
            int count = parent is null ? 1 : random.Next(2, 13);
            var children = new List<NodeBase>(count);
            for (int i = 0; i < count && made < nodes; i++, made++)
            {
                if (parent is null || random.Chance(0.35))
                {
                    var folder = new FolderNode { IsShared = random.Chance(0.3) };
                    FillBase(folder, random, words);
                    folder.Children = random.Chance(0.5) ? null : [];
                    open.Enqueue(folder);
                    children.Add(folder);
                }
                else
                {
                    children.Add(Document(random, words));
                }
            }

            if (parent is null)
            {
                catalog.Roots.AddRange(children);
            }
            else
            {
                parent.Children = children;
            }
        }

        return catalog;
    }

    private static FolderCatalog EmptyCatalog(SeededRandom random, WordGenerator words) => new()
    {
        SchemaVersion = new Version(3, 2, 1),
        Tenant = words.Phrase(18, '-'),
        Built = random.NextUtcMilliseconds(Epoch, Horizon),
    };

    private static FolderNode Folder(SeededRandom random, WordGenerator words, int depth)
    {
        var folder = new FolderNode { IsShared = random.Chance(0.3) };
        FillBase(folder, random, words);
        double roll = random.NextDouble();
        if (depth >= 3 || roll < 0.1)
        {
            folder.Children = random.Chance(0.5) ? null : [];
        }
        else if (roll < 0.2)
        {
            folder.Children = [];
        }
        else
        {
            int count = random.Next(2, 6);
            folder.Children = new List<NodeBase>(count);
            for (int i = 0; i < count; i++)
            {
                folder.Children.Add(random.Chance(0.35) ? Folder(random, words, depth + 1) : Document(random, words));
            }
        }

        return folder;
    }

    private static DocumentNode Document(SeededRandom random, WordGenerator words)
    {
        var document = new DocumentNode
        {
            Length = random.NextInt64(0, 1L << random.Next(4, 30)),
            ContentType = random.Pick(ContentTypes),
        };
        FillBase(document, random, words);
        document.FormatVersion = random.Next(0, 4) switch
        {
            0 => null,
            1 => new Version(random.Next(1, 20), random.Next(0, 10)),
            2 => new Version(random.Next(1, 20), random.Next(0, 10), random.Next(0, 100)),
            _ => new Version(random.Next(1, 20), random.Next(0, 10), random.Next(0, 100), random.Next(0, 10_000)),
        };
        double roll = random.NextDouble();
        if (roll < 0.25)
        {
            document.Revisions = null;
        }
        else if (roll < 0.4)
        {
            document.Revisions = [];
        }
        else
        {
            int count = random.Next(1, 5);
            document.Revisions = new List<Revision>(count);
            DateTime saved = document.Created;
            for (int i = 1; i <= count; i++)
            {
                saved = random.NextUtcMilliseconds(saved, saved.AddDays(60));
                document.Revisions.Add(new Revision { Number = i, Saved = saved, Author = words.Phrase(random.Next(6, 16), ' ') });
            }
        }

        return document;
    }

    private static void FillBase(NodeBase node, SeededRandom random, WordGenerator words)
    {
        node.Id = random.NextGuid();
        node.Name = words.Phrase(random.Next(5, 33), ' ');
        node.Created = random.NextUtcMilliseconds(Epoch, Horizon);
        double roll = random.NextDouble();
        node.Labels = roll < 0.3 ? null : roll < 0.5 ? [] : Enumerable.Range(0, random.Next(1, 4)).Select(_ => words.Word()).ToList();
        node.Description = random.Chance(0.6) ? null : words.Phrase(random.Next(20, 61), ' ');
    }
}
