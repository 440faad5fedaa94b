using ProtoBuf;

namespace CacheSerializer.WebApp;

// What the app caches: a base contract and its subtypes, joined by [ProtoInclude] so a read returns the stored subtype.
[ProtoContract, ProtoInclude(10, typeof(Book)), ProtoInclude(11, typeof(Course))]
public class Product
{
    [ProtoMember(1)]
    public int Id { get; set; }

    [ProtoMember(2)]
    public string Name { get; set; } = "";

    [ProtoMember(3)]
    public decimal Price { get; set; }

    // Null (never tagged) and empty (all tags removed) are different answers; both survive the cache.
    [ProtoMember(4)]
    public List<string>? Tags { get; set; }

    [ProtoMember(5)]
    public DateTime UpdatedUtc { get; set; }
}

[ProtoContract]
public sealed class Book : Product
{
    [ProtoMember(1)]
    public string Isbn { get; set; } = "";

    [ProtoMember(2)]
    public Version? Edition { get; set; }
}

[ProtoContract]
public sealed class Course : Product
{
    [ProtoMember(1)]
    public List<string> Lessons { get; set; } = [];
}

/// <summary>Stands for the slow source of truth (a database); counts its loads so tests can see the cache work.</summary>
public sealed class ProductRepository
{
    private int _loads;

    public int Loads => Volatile.Read(ref _loads);

    public async Task<Product?> LoadAsync(int id, CancellationToken cancellationToken)
    {
        Interlocked.Increment(ref _loads);
        await Task.Delay(20, cancellationToken).ConfigureAwait(false);
        var updated = new DateTime(2026, 11, 1, 12, 0, 0, DateTimeKind.Utc);
        return id switch
        {
            1 => new Book { Id = 1, Name = "Designing Data-Intensive Applications", Price = 39.90m, Tags = ["databases"], Isbn = "978-1449373320", Edition = new Version(1, 0), UpdatedUtc = updated },
            2 => new Course { Id = 2, Name = "memcached in production", Price = 120m, Tags = [], Lessons = ["ketama", "eviction", "sizing"], UpdatedUtc = updated },
            3 => new Product { Id = 3, Name = "Gift card", Price = 25m, Tags = null, UpdatedUtc = updated },
            _ => null,
        };
    }
}
