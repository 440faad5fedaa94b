using CacheSerializer.Workloads.Contenders;

namespace CacheSerializer.Workloads.Internal;

/// <summary>A <see cref="WorkloadRun"/> that reads back a <typeparamref name="TRead"/> (the value, the message or the bytes).</summary>
/// <typeparam name="TRead">The type read back.</typeparam>
internal sealed class WorkloadRun<TRead> : WorkloadRun
{
    private readonly ITranscoder _transcoder;
    private readonly object _input;
    private TRead? _last;

    public WorkloadRun(Workload workload, Contender contender, object input)
        : base(workload, contender, Detach(contender.Transcoder.Serialize(input)))
    {
        _transcoder = contender.Transcoder;
        _input = input;
    }

    /// <summary>Gets the value the last read returned.</summary>
    public TRead? Last => _last;

    public override int Serialize() => _transcoder.Serialize(_input).Data.Count;

    public override int Deserialize()
    {
        _last = _transcoder.Deserialize<TRead>(Stored);
        return 1;
    }

    public override int RoundTrip()
    {
        CacheItem item = _transcoder.Serialize(_input);
        _last = _transcoder.Deserialize<TRead>(item);
        return item.Data.Count;
    }

    private static CacheItem Detach(CacheItem item) => new(item.Flags, new ArraySegment<byte>(item.Data.AsSpan().ToArray()));
}
