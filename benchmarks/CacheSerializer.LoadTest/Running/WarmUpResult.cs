namespace CacheSerializer.LoadTest.Running;

/// <summary>What the warm-up phase of a pass did.</summary>
/// <param name="Stored">Keys stored.</param>
/// <param name="Failed">Keys whose store failed (the pass then does not complete).</param>
/// <param name="Seconds">How long it took.</param>
/// <param name="FirstFailure">The first failure's description, or <see langword="null"/>.</param>
internal sealed record WarmUpResult(int Stored, int Failed, double Seconds, string? FirstFailure);
