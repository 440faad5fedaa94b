namespace CacheSerializer.LoadTest.Mix;

/// <summary>
/// One shape of a mix in both forms: the shared workload classes (<see cref="Plain"/>, what every general transcoder is
/// handed) and the peers' model classes (<see cref="Peer"/>, built on first use from the same templates).
/// </summary>
internal sealed class ShapeDefinition
{
    private readonly Func<ValueShape> _peer;

    private ShapeDefinition(ValueShape plain, Func<ValueShape> peer)
    {
        Plain = plain;
        _peer = peer;
    }

    /// <summary>Gets the shape on the shared workload classes.</summary>
    public ValueShape Plain { get; }

    /// <summary>Builds the same shape on the peers' model classes: every template mapped once, stamped and checked on the peer type.</summary>
    /// <returns>The shape.</returns>
    public ValueShape Peer() => _peer();

    /// <summary>Defines a shape.</summary>
    /// <typeparam name="T">The shared workload class.</typeparam>
    /// <typeparam name="TPeer">The peers' model class.</typeparam>
    /// <param name="name">The name shown in reports.</param>
    /// <param name="share">The share of keys.</param>
    /// <param name="description">A short description of the variants.</param>
    /// <param name="templates">The seeded variants.</param>
    /// <param name="withStamp">A shallow copy of a template with the stamp in one member.</param>
    /// <param name="toPeer">Maps a template to the peer model (once per template).</param>
    /// <param name="peerWithStamp">The same stamp, on the peer model.</param>
    /// <returns>The definition.</returns>
    public static ShapeDefinition Of<T, TPeer>(
        string name, double share, string description, T[] templates, Func<T, int, T> withStamp, Func<T, TPeer> toPeer, Func<TPeer, int, TPeer> peerWithStamp)
        where T : class, IEquatable<T>
        where TPeer : class, IEquatable<TPeer> =>
        new(
            new ValueShape<T>(name, share, description, templates, withStamp),
            () => new ValueShape<TPeer>(name, share, description, Array.ConvertAll(templates, t => toPeer(t)), peerWithStamp));
}
