using System.Collections.Concurrent;
using CacheSerializer.LoadTest.Checking;
using CacheSerializer.LoadTest.Measuring;

namespace CacheSerializer.LoadTest.Migrate;

/// <summary>The counts every web server adds to, per phase, and the phase the migration is in.</summary>
internal sealed class MigrateTally
{
    /// <summary>The flags of an object EnyimMemcachedCore's DefaultTranscoder wrote (or this package in the migration phase): BSON.</summary>
    public const uint BsonObjectFlags = 0x0101;

    private const int MaxSamples = 5;
    private const int Counters = 11;
    private const int Hits = 0, Misses = 1, Stale = 2, OldCaught = 3, NewCaught = 4, Updates = 5, Written = 6, WrittenBytes = 7, WrittenBson = 8, NonValues = 9, FactoryReads = 10;
    private static readonly int PhaseCount = Enum.GetValues<MigratePhase>().Length;

    private readonly long[] _counts = new long[PhaseCount * Counters];
    private readonly ReadFindings[] _findings = [.. Enumerable.Range(0, PhaseCount).Select(_ => new ReadFindings())];
    private readonly SampleList _exceptionSamples = new();
    private readonly SampleList _staleSamples = new();
    private readonly SampleList _nonValueSamples = new();
    private int _phase = -1;

    /// <summary>Gets or sets the phase the migration is in (null before the load starts: nothing is counted then);
    /// an operation counts in the phase it started in, an item written in the phase it was serialized in.</summary>
    public MigratePhase? Phase
    {
        get => Volatile.Read(ref _phase) is int phase and >= 0 ? (MigratePhase)phase : null;
        set => Volatile.Write(ref _phase, value is MigratePhase phase ? (int)phase : -1);
    }

    /// <summary>Counts a hit: right, stale (the message), or wrong (the message).</summary>
    /// <param name="phase">The phase the read started in.</param>
    /// <param name="stale">Why the value is stale, or null.</param>
    /// <param name="wrong">What is wrong with the value, or null.</param>
    public void Hit(MigratePhase? phase, string? stale, string? wrong)
    {
        Add(phase, Hits);
        if (stale is not null)
        {
            Add(phase, Stale);
            _staleSamples.Add(phase, stale);
        }

        if (wrong is not null && phase is MigratePhase known)
        {
            _findings[(int)known].Corruption($"{NameOf(phase)}: {wrong}");
        }
    }

    /// <summary>Counts a hit of an old server whose value is not one (a get-or-create placeholder: EnyimMemcachedCore's
    /// hit with value null), which its code then treats as a miss.</summary>
    /// <param name="phase">The phase the read started in.</param>
    /// <param name="message">What was read.</param>
    public void NonValue(MigratePhase? phase, string message)
    {
        Add(phase, NonValues);
        _nonValueSamples.Add(phase, message);
    }

    /// <summary>Counts a read of a new server through <c>GetOrCreateAsync</c> (its hit or miss is counted too).</summary>
    /// <param name="phase">The phase the read started in.</param>
    public void GetOrCreateRead(MigratePhase? phase) => Add(phase, FactoryReads);

    /// <summary>Counts a miss, and a lost hit (the message) when memcached held the key's last write.</summary>
    /// <param name="phase">The phase the read started in.</param>
    /// <param name="lostHit">Why the miss is a lost hit, or null.</param>
    public void Miss(MigratePhase? phase, string? lostHit)
    {
        Add(phase, Misses);
        if (lostHit is not null && phase is MigratePhase known)
        {
            _findings[(int)known].MissOnStoredKey($"{NameOf(phase)}: {lostHit}");
        }
    }

    /// <summary>Counts an exception on an old or a new web server: caught by its client, or reaching its code.</summary>
    /// <param name="phase">The phase the operation started in.</param>
    /// <param name="old">Whether the web server is an old one.</param>
    /// <param name="message">What was caught.</param>
    public void Exception(MigratePhase? phase, bool old, string message)
    {
        Add(phase, old ? OldCaught : NewCaught);
        _exceptionSamples.Add(phase, $"{(old ? "old" : "new")} server: {message}");
    }

    /// <summary>Counts an update (a new version in the source of truth, then a delete or an overwrite).</summary>
    /// <param name="phase">The phase the update started in.</param>
    public void Update(MigratePhase? phase) => Add(phase, Updates);

    /// <summary>Counts an item a web server's transcoder wrote, in the current phase: its size, and whether it is a BSON object.</summary>
    /// <param name="item">The item.</param>
    public void Write(CacheItem item)
    {
        MigratePhase? phase = Phase;
        Add(phase, Written);
        Add(phase, WrittenBytes, item.Data.Count);
        if (item.Flags == BsonObjectFlags)
        {
            Add(phase, WrittenBson);
        }
    }

    /// <summary>Returns the result of a phase.</summary>
    /// <param name="phase">The phase.</param>
    /// <param name="evictions">memcached's evictions over the path (null: not known): a lost hit is only counted when it evicted nothing.</param>
    /// <param name="atEnd">memcached's stats when the phase ended.</param>
    /// <returns>The result.</returns>
    public MigratePhaseResult Result(MigratePhase phase, long? evictions, ServerStats atEnd)
    {
        long Get(int counter) => Interlocked.Read(ref _counts[((int)phase * Counters) + counter]);
        ReadFindings findings = _findings[(int)phase];
        return new MigratePhaseResult
        {
            Phase = MigrateReportWriter.NameOf(phase),
            Reads = Get(Hits) + Get(Misses),
            Hits = Get(Hits),
            Misses = Get(Misses),
            StaleValues = Get(Stale),
            NonValues = Get(NonValues),
            GetOrCreateReads = Get(FactoryReads),
            WrongValues = findings.Corruptions,
            LostHits = ReadFindings.LostWrites(findings.MissesOnStoredKeys, evictions),
            OldServerExceptions = Get(OldCaught),
            NewServerExceptions = Get(NewCaught),
            Updates = Get(Updates),
            ItemsWritten = Get(Written),
            BsonItemsWritten = Get(WrittenBson),
            BytesWritten = Get(WrittenBytes),
            MemcachedBytes = atEnd.Bytes,
            MemcachedItems = atEnd.CurrentItems,
        };
    }

    /// <summary>Returns the samples of what went wrong: exceptions, wrong values, stale values, lost hits.</summary>
    /// <returns>Up to five of each kind.</returns>
    public IReadOnlyList<string> Samples() =>
    [
        .. _exceptionSamples.All, .. _findings.SelectMany(f => f.CorruptionSamples).Take(MaxSamples),
        .. _staleSamples.All, .. _nonValueSamples.All, .. _findings.SelectMany(f => f.LostWriteSamples).Take(MaxSamples),
    ];

    private static string NameOf(MigratePhase? phase) => phase is MigratePhase known ? MigrateReportWriter.NameOf(known) : "before the load";

    private void Add(MigratePhase? phase, int counter, long amount = 1)
    {
        if (phase is MigratePhase known)
        {
            Interlocked.Add(ref _counts[((int)known * Counters) + counter], amount);
        }
    }

    /// <summary>The first few messages of one kind, each with its phase.</summary>
    private sealed class SampleList
    {
        private readonly ConcurrentQueue<string> _messages = new();
        private int _count;

        public IEnumerable<string> All => _messages;

        public void Add(MigratePhase? phase, string message)
        {
            if (Interlocked.Increment(ref _count) <= MaxSamples)
            {
                _messages.Enqueue($"{NameOf(phase)}: {message}");
            }
        }
    }
}
