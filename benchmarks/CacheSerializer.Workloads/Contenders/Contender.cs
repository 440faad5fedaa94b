namespace CacheSerializer.Workloads.Contenders;

/// <summary>One alternative a .NET team would pick to store cached values: a name, a transcoder, and the form it stores.</summary>
/// <param name="name">The name shown in reports and benchmark columns.</param>
/// <param name="transcoder">The transcoder, shared across threads.</param>
/// <param name="input">Which form of each workload it is handed; <see cref="ContenderInput.Value"/> for any general transcoder.</param>
public sealed class Contender(string name, ITranscoder transcoder, ContenderInput input = ContenderInput.Value)
{
    /// <summary>Gets the name shown in reports and benchmark columns.</summary>
    public string Name { get; } = name ?? throw new ArgumentNullException(nameof(name));

    /// <summary>Gets the transcoder.</summary>
    public ITranscoder Transcoder { get; } = transcoder ?? throw new ArgumentNullException(nameof(transcoder));

    /// <summary>Gets which form of each workload the transcoder is handed.</summary>
    public ContenderInput Input { get; } = input;

    /// <inheritdoc/>
    public override string ToString() => Name;
}
