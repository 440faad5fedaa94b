using Microsoft.Extensions.Logging;

namespace CacheSerializer.LoadTest.Hybrid;

/// <summary>The faults phase's logger provider for the web servers: counts, in the step being run, the package's
/// HybridCache's events "the invalidation log cannot be read" (44: it serves L1 through an outage) and "a change
/// memcached did not take" (43: kept, made again), so that a step can say whether a freeze put the web servers in an
/// outage. Everything else is dropped.</summary>
/// <param name="current">The step's tally, read at each event.</param>
internal sealed class HybridEventCounter(Func<HybridPhaseTally> current) : ILoggerProvider, ILogger
{
    /// <summary>The HybridCache's event "the invalidation log cannot be read".</summary>
    private const int OutageBegan = 44;

    /// <summary>The HybridCache's event "a change memcached did not take".</summary>
    private const int ChangeFailed = 43;

    /// <summary>How the HybridCache's messages begin: event ids are per category, and the client's own may reuse these.</summary>
    private const string Prefix = "memcached HybridCache:";

    /// <inheritdoc/>
    public ILogger CreateLogger(string categoryName) => this;

    /// <inheritdoc/>
    public IDisposable? BeginScope<TState>(TState state)
        where TState : notnull => null;

    /// <inheritdoc/>
    public bool IsEnabled(LogLevel logLevel) => logLevel >= LogLevel.Warning;

    /// <inheritdoc/>
    public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
    {
        if (eventId.Id is OutageBegan or ChangeFailed && formatter(state, exception).StartsWith(Prefix, StringComparison.Ordinal))
        {
            current().HybridEvent(outage: eventId.Id == OutageBegan);
        }
    }

    /// <inheritdoc/>
    public void Dispose()
    {
    }
}
