// Nullable-oblivious, as EnyimMemcachedCore's own interface (it has no annotations): a call site that compiled against
// it compiles here without new nullable warnings.
#nullable disable
#pragma warning disable RS0041 // oblivious on purpose (above)

namespace CacheSerializer.Enyim;

/// <summary>The outcome of an operation, as EnyimMemcachedCore's <c>Enyim.Caching.Memcached.Results.IOperationResult</c>.</summary>
public interface IOperationResult
{
    /// <summary>Gets or sets a value indicating whether the operation succeeded (a read: a hit).</summary>
    bool Success { get; set; }

    /// <summary>Gets or sets why it did not (memcached's binary-protocol message, such as "Not found"); null on success.</summary>
    string Message { get; set; }

    /// <summary>Gets or sets the exception of a server failure, if any.</summary>
    Exception Exception { get; set; }

    /// <summary>Gets or sets the binary-protocol status code of a failure (1 not found, 2 exists, 5 not stored); null on
    /// success and on a server failure, as there.</summary>
    int? StatusCode { get; set; }

    /// <summary>Gets or sets the result of an inner command; null here (EnyimMemcachedCore sets it on some failures).</summary>
    IOperationResult InnerResult { get; set; }
}
