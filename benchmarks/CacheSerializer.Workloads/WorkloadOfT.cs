using CacheSerializer.Workloads.Contenders;
using CacheSerializer.Workloads.Internal;
using Google.Protobuf;

namespace CacheSerializer.Workloads;

/// <summary>A workload whose .NET value is a <typeparamref name="T"/> and whose protobuf form is a <typeparamref name="TMessage"/>.</summary>
/// <typeparam name="T">The .NET type.</typeparam>
/// <typeparam name="TMessage">The generated message type.</typeparam>
public sealed class Workload<T, TMessage> : Workload
    where T : notnull
    where TMessage : class, IMessage<TMessage>
{
    private readonly Func<T, T, bool> _equals;
    private readonly object _boxed;
    private readonly byte[] _messageBytes;
    private PeerForm<T>? _peer;

    /// <summary>Creates a workload.</summary>
    /// <param name="name">The name, short and without spaces.</param>
    /// <param name="kind">Whether it is an object graph or a primitive.</param>
    /// <param name="value">The value.</param>
    /// <param name="toMessage">Maps the value to its generated message.</param>
    /// <param name="fromMessage">Maps the message back.</param>
    /// <param name="equals">The exact equality of two values; <see cref="EqualityComparer{T}.Default"/> when omitted.</param>
    public Workload(string name, WorkloadKind kind, T value, Func<T, TMessage> toMessage, Func<TMessage, T> fromMessage, Func<T, T, bool>? equals = null)
        : base(name, kind)
    {
        ArgumentNullException.ThrowIfNull(toMessage);
        TypedValue = value;
        _boxed = value;
        TypedMessage = toMessage(value);
        FromMessage = fromMessage ?? throw new ArgumentNullException(nameof(fromMessage));
        _equals = equals ?? EqualityComparer<T>.Default.Equals;
        _messageBytes = TypedMessage.ToByteArray();
    }

    /// <summary>Gets the value.</summary>
    public T TypedValue { get; }

    /// <summary>Gets the value as a generated message.</summary>
    public TMessage TypedMessage { get; }

    /// <summary>Adds the value's form as the peers' model classes (<see cref="ContenderInput.PeerModel"/>); without it, peers are handed the value itself.</summary>
    /// <typeparam name="TPeer">The peer model type.</typeparam>
    /// <param name="toPeer">Maps the value to the peer model (called once, now).</param>
    /// <param name="fromPeer">Maps a peer model back, for the exact check.</param>
    /// <returns>This workload.</returns>
    public Workload<T, TMessage> WithPeer<TPeer>(Func<T, TPeer> toPeer, Func<TPeer, T> fromPeer)
        where TPeer : notnull
    {
        ArgumentNullException.ThrowIfNull(toPeer);
        ArgumentNullException.ThrowIfNull(fromPeer);
        _peer = new PeerForm<T, TPeer>(TypedValue, toPeer, fromPeer);
        return this;
    }

    /// <summary>Gets the mapping from the generated message back to the value.</summary>
    public Func<TMessage, T> FromMessage { get; }

    /// <inheritdoc/>
    public override Type ValueType => typeof(T);

    /// <inheritdoc/>
    public override object Value => _boxed;

    /// <inheritdoc/>
    public override IMessage Message => TypedMessage;

    /// <inheritdoc/>
    public override object InputFor(ContenderInput input) => input switch
    {
        ContenderInput.Value => _boxed,
        ContenderInput.ProtobufMessage => TypedMessage,
        ContenderInput.Payload => Kind == WorkloadKind.Object ? _messageBytes : _boxed,
        ContenderInput.PeerModel => _peer?.Value ?? _boxed,
        _ => throw new ArgumentOutOfRangeException(nameof(input), input, null),
    };

    /// <inheritdoc/>
    public override object? Read(Contender contender, CacheItem item)
    {
        ArgumentNullException.ThrowIfNull(contender);
        ITranscoder transcoder = contender.Transcoder;
        return ReadsBytes(contender) ? transcoder.Deserialize<byte[]>(item)
            : contender.Input == ContenderInput.ProtobufMessage ? transcoder.Deserialize<TMessage>(item)
            : contender.Input == ContenderInput.PeerModel && _peer is not null ? _peer.Read(transcoder, item)
            : transcoder.Deserialize<T>(item);
    }

    /// <inheritdoc/>
    public override bool IsExact(Contender contender, object? read)
    {
        ArgumentNullException.ThrowIfNull(contender);
        if (ReadsBytes(contender))
        {
            return read is byte[] bytes && bytes.AsSpan().SequenceEqual(_messageBytes);
        }

        if (contender.Input == ContenderInput.ProtobufMessage)
        {
            return read is TMessage message && message.Equals(TypedMessage) && _equals(FromMessage(message), TypedValue);
        }

        if (contender.Input == ContenderInput.PeerModel && _peer is not null)
        {
            return _peer.TryMapBack(read, out T mapped) && _equals(mapped, TypedValue);
        }

        return read is T value && _equals(value, TypedValue);
    }

    /// <inheritdoc/>
    public override WorkloadRun Bind(Contender contender)
    {
        ArgumentNullException.ThrowIfNull(contender);
        object input = InputFor(contender.Input);
        return ReadsBytes(contender) ? new WorkloadRun<byte[]>(this, contender, input)
            : contender.Input == ContenderInput.ProtobufMessage ? new WorkloadRun<TMessage>(this, contender, input)
            : contender.Input == ContenderInput.PeerModel && _peer is not null ? _peer.Bind(this, contender)
            : new WorkloadRun<T>(this, contender, input);
    }

    private bool ReadsBytes(Contender contender) => contender.Input == ContenderInput.Payload && Kind == WorkloadKind.Object;
}
