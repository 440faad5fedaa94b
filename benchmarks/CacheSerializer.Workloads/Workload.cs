using CacheSerializer.Workloads.Contenders;
using Google.Protobuf;

namespace CacheSerializer.Workloads;

/// <summary>One value to store, defined once: its .NET form, its Google.Protobuf form, and how to check a read-back copy.</summary>
/// <remarks>Built by <see cref="WorkloadCatalog"/>; the typed form is <see cref="Workload{T, TMessage}"/>.</remarks>
public abstract class Workload
{
    private protected Workload(string name, WorkloadKind kind)
    {
        Name = name;
        Kind = kind;
    }

    /// <summary>Gets the name, short and without spaces, as benchmark filters and parameters show it.</summary>
    public string Name { get; }

    /// <summary>Gets whether this is an object graph or a primitive.</summary>
    public WorkloadKind Kind { get; }

    /// <summary>Gets the .NET type of <see cref="Value"/>.</summary>
    public abstract Type ValueType { get; }

    /// <summary>Gets the .NET value: the POCO graph or the primitive (boxed once).</summary>
    public abstract object Value { get; }

    /// <summary>Gets the same value as a Google.Protobuf generated message.</summary>
    public abstract IMessage Message { get; }

    /// <summary>Returns the form of the value a contender is handed.</summary>
    /// <param name="input">The contender's input.</param>
    /// <returns>The value, the message, or the payload (see <see cref="ContenderInput.Payload"/>).</returns>
    public abstract object InputFor(ContenderInput input);

    /// <summary>Reads an item back through the contender's typed path (<see cref="ITranscoder.Deserialize{T}"/>).</summary>
    /// <param name="contender">The contender that wrote the item.</param>
    /// <param name="item">The item.</param>
    /// <returns>The value read.</returns>
    public abstract object? Read(Contender contender, CacheItem item);

    /// <summary>Whether a value read back equals, exactly, what the contender was handed.</summary>
    /// <param name="contender">The contender.</param>
    /// <param name="read">The value it read back.</param>
    /// <returns><see langword="true"/> when equal (instants with their kind, null and empty collections apart).</returns>
    public abstract bool IsExact(Contender contender, object? read);

    /// <summary>Prepares a contender to store this value repeatedly, with nothing left to do per call but the transcoder's work.</summary>
    /// <param name="contender">The contender.</param>
    /// <returns>The prepared run; it serializes once now, so a contender that cannot store the value fails here.</returns>
    public abstract WorkloadRun Bind(Contender contender);

    /// <inheritdoc/>
    public override string ToString() => Name;
}
