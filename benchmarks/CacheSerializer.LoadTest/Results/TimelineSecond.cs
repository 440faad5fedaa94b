namespace CacheSerializer.LoadTest.Results;

/// <summary>One second of a pass: what the users did in it (the fault mode's view of an outage and its recovery).</summary>
/// <param name="Second">Seconds since the users started (0 is the first second).</param>
/// <param name="Operations">Operations completed in the second (gets and sets).</param>
/// <param name="Hits">Gets that found a value.</param>
/// <param name="Misses">Gets that found nothing: a key not yet written, evicted, or on a server that failed.</param>
/// <param name="StoreFailures">Sets the client reported as <c>ServerFailure</c> (its server was down or failed).</param>
/// <param name="Errors">Operations that threw.</param>
internal sealed record TimelineSecond(int Second, long Operations, long Hits, long Misses, long StoreFailures, long Errors);
