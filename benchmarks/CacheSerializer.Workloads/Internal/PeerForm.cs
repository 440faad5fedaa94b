using CacheSerializer.Workloads.Contenders;

namespace CacheSerializer.Workloads.Internal;

/// <summary>A workload's value as the peers' model (<see cref="ContenderInput.PeerModel"/>): mapped once, read back typed, checked by mapping back.</summary>
/// <typeparam name="T">The workload's .NET type.</typeparam>
internal abstract class PeerForm<T>
{
    /// <summary>Gets the value as the peer model.</summary>
    public abstract object Value { get; }

    /// <summary>Reads an item back as the peer model type.</summary>
    public abstract object? Read(ITranscoder transcoder, CacheItem item);

    /// <summary>Maps a peer model read back to <typeparamref name="T"/>, or returns false when it is not one.</summary>
    public abstract bool TryMapBack(object? read, out T value);

    /// <summary>Binds a contender that reads the peer model type.</summary>
    public abstract WorkloadRun Bind(Workload workload, Contender contender);
}

/// <summary>The peer form of a <typeparamref name="T"/> as a <typeparamref name="TPeer"/>.</summary>
/// <typeparam name="T">The workload's .NET type.</typeparam>
/// <typeparam name="TPeer">The peer model type (the same type for primitives, which the peers store as they are).</typeparam>
internal sealed class PeerForm<T, TPeer>(T value, Func<T, TPeer> toPeer, Func<TPeer, T> fromPeer) : PeerForm<T>
    where TPeer : notnull
{
    private readonly object _value = toPeer(value);

    public override object Value => _value;

    public override object? Read(ITranscoder transcoder, CacheItem item) => transcoder.Deserialize<TPeer>(item);

    public override bool TryMapBack(object? read, out T value)
    {
        if (read is TPeer peer)
        {
            value = fromPeer(peer);
            return true;
        }

        value = default!;
        return false;
    }

    public override WorkloadRun Bind(Workload workload, Contender contender) => new WorkloadRun<TPeer>(workload, contender, _value);
}
