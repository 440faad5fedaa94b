using System.Collections.Concurrent;
using CacheSerializer.LoadTest.Checking;

namespace CacheSerializer.LoadTest.Deploy;

/// <summary>The counts every caller adds to, per phase, and the phase the deploy is in.</summary>
internal sealed class DeployTally
{
    private const int MaxSamples = 5;
    private const int Counters = 9;
    private const int Hits = 0, Misses = 1, OtherBuild = 2, Errors = 3, Factory = 4, Stale = 5, Absent = 6, Updates = 7, UpdateMisses = 8;

    private readonly long[] _counts = new long[3 * Counters];
    private readonly ReadFindings[] _findings = [new(), new(), new()];
    private readonly ConcurrentDictionary<(DeployPhase Phase, string Reason), long> _unreadable = new();
    private readonly List<string> _samples = [];
    private readonly List<string> _absentSamples = [];
    private readonly IReadOnlySet<string> _expectedUnreadable;
    private int _phase;

    /// <summary>Creates the tally of a deploy whose change makes items of <paramref name="expectedUnreadable"/> reasons
    /// unreadable across builds (the deliberate contract change); any other unreadable item is a corruption.</summary>
    /// <param name="expectedUnreadable">The reasons the change explains.</param>
    public DeployTally(IReadOnlySet<string> expectedUnreadable)
    {
        _expectedUnreadable = expectedUnreadable;
    }

    /// <summary>Gets or sets the phase the deploy is in; a read counts in the phase it started in.</summary>
    public DeployPhase Phase
    {
        get => (DeployPhase)Volatile.Read(ref _phase);
        set => Volatile.Write(ref _phase, (int)value);
    }

    /// <summary>Counts a hit: right (null problems), the other build's value, stale (the message), or a corruption (the message).</summary>
    public void Hit(DeployPhase phase, bool otherBuild, string? stale, string? corruption)
    {
        Add(phase, Hits);
        if (stale is not null)
        {
            Add(phase, Stale);
            Sample(stale);
        }

        if (otherBuild)
        {
            Add(phase, OtherBuild);
        }

        if (corruption is not null)
        {
            _findings[(int)phase].Corruption(corruption);
            Sample(corruption);
        }
    }

    /// <summary>Counts a miss: of an item the reader could not read (<paramref name="unreadable"/>: its reason), or of
    /// an absent key, which is a lost write when its last write had been stored and none started since the read began
    /// (<paramref name="lostWrite"/>), and otherwise what an update's delete left. <paramref name="causedByUpdate"/>: a
    /// delete or overwrite of the key completed since the reader's build last read or filled it.</summary>
    public void Miss(DeployPhase phase, string? unreadable, bool lostWrite, bool causedByUpdate, string key)
    {
        Add(phase, Misses);
        if (causedByUpdate)
        {
            Add(phase, UpdateMisses);
        }

        if (unreadable is null)
        {
            Add(phase, Absent);
            if (lostWrite)
            {
                _findings[(int)phase].MissOnStoredKey($"{key}: a miss on a key whose last write memcached had stored");
            }
            else if (!causedByUpdate)
            {
                // No update explains it and nothing was unreadable: kept as a sample, so that a run without updates that
                // misses (none should) says which key, when and on which build.
                lock (_absentSamples)
                {
                    if (_absentSamples.Count < 3)
                    {
                        _absentSamples.Add($"{key}: absent in the {phase.ToString().ToLowerInvariant()} phase, no update since its build last saw it");
                    }
                }
            }

            return;
        }

        _unreadable.AddOrUpdate((phase, unreadable), 1, static (_, n) => n + 1);

        // Before the first switch only build 1 runs: nothing may be unreadable then.
        if (phase == DeployPhase.Before || !_expectedUnreadable.Contains(unreadable))
        {
            string message = $"{key}: an item that could not be read ({unreadable}) {(phase == DeployPhase.Before ? "before the deploy" : "that this change does not explain")}";
            _findings[(int)phase].Corruption(message);
            Sample(message);
        }
    }

    /// <summary>Counts an update (a new version, then a delete or an overwrite).</summary>
    public void Update(DeployPhase phase) => Add(phase, Updates);

    /// <summary>Returns how many updates a phase has seen so far.</summary>
    public long UpdatesIn(DeployPhase phase) => Interlocked.Read(ref _counts[((int)phase * Counters) + Updates]);

    /// <summary>Counts a factory call.</summary>
    public void FactoryCall(DeployPhase phase) => Add(phase, Factory);

    /// <summary>Counts an exception that reached the web server's code, or a set memcached did not store.</summary>
    public void Error(DeployPhase phase, string message)
    {
        Add(phase, Errors);
        Sample(message);
    }

    /// <summary>Returns the result of a phase.</summary>
    /// <param name="phase">The phase.</param>
    /// <param name="evictions">memcached's evictions over the deploy (null: not known): a miss on a stored key is a lost
    /// write only when it evicted nothing.</param>
    public DeployPhaseResult Result(DeployPhase phase, long? evictions)
    {
        long Get(int counter) => Interlocked.Read(ref _counts[((int)phase * Counters) + counter]);
        ReadFindings findings = _findings[(int)phase];
        return new DeployPhaseResult
        {
            Phase = phase.ToString().ToLowerInvariant(),
            Reads = Get(Hits) + Get(Misses),
            Hits = Get(Hits),
            Misses = Get(Misses),
            AbsentMisses = Get(Absent),
            UpdateCausedMisses = Get(UpdateMisses),
            StaleValues = Get(Stale),
            Updates = Get(Updates),
            Unreadable = new SortedDictionary<string, long>(
                _unreadable.Where(u => u.Key.Phase == phase).ToDictionary(u => u.Key.Reason, u => u.Value, StringComparer.Ordinal), StringComparer.Ordinal),
            OtherBuildValues = Get(OtherBuild),
            Corruptions = findings.Corruptions,
            LostWrites = ReadFindings.LostWrites(findings.MissesOnStoredKeys, evictions),
            Errors = Get(Errors),
            FactoryCalls = Get(Factory),
        };
    }

    /// <summary>Returns the samples of errors, corruptions and lost writes, then of up to 3 misses of an absent key that no
    /// update explains (a build's first miss of a key an update had deleted, or, in a run without updates, any).</summary>
    public IReadOnlyList<string> Samples()
    {
        lock (_samples)
        {
            lock (_absentSamples)
            {
                return [.. _samples, .. _findings.SelectMany(f => f.LostWriteSamples).Take(MaxSamples), .. _absentSamples];
            }
        }
    }

    private void Add(DeployPhase phase, int counter) => Interlocked.Increment(ref _counts[((int)phase * Counters) + counter]);

    private void Sample(string message)
    {
        lock (_samples)
        {
            if (_samples.Count < MaxSamples)
            {
                _samples.Add(message);
            }
        }
    }
}
