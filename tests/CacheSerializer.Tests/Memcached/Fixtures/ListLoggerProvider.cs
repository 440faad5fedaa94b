using Microsoft.Extensions.Logging;

namespace CacheSerializer.Tests.Memcached.Fixtures;

/// <summary>A logger provider that keeps every entry in memory, for asserting what the client logs.</summary>
public sealed class ListLoggerProvider : ILoggerProvider
{
    private readonly List<(LogLevel Level, string Message)> _entries = [];
    private readonly List<string> _texts = [];

    /// <summary>Gets a snapshot of the entries so far.</summary>
    public IReadOnlyList<(LogLevel Level, string Message)> Entries
    {
        get
        {
            lock (_entries)
            {
                return _entries.ToArray();
            }
        }
    }

    /// <summary>Gets every text the loggers were handed: each message, its exception (with causes and stack) and the
    /// values of its structured state, for asserting that something never reaches any log sink.</summary>
    public IReadOnlyList<string> Texts
    {
        get
        {
            lock (_entries)
            {
                return _texts.ToArray();
            }
        }
    }

    /// <inheritdoc/>
    public ILogger CreateLogger(string categoryName) => new ListLogger(this);

    /// <inheritdoc/>
    public void Dispose()
    {
    }

    private sealed class ListLogger(ListLoggerProvider owner) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            lock (owner._entries)
            {
                string message = formatter(state, exception);
                owner._entries.Add((logLevel, message));
                owner._texts.Add(message);
                if (exception is not null)
                {
                    owner._texts.Add(exception.ToString());
                }

                if (state is IEnumerable<KeyValuePair<string, object?>> values)
                {
                    owner._texts.AddRange(values.Select(static v => $"{v.Key}={v.Value}"));
                }
            }
        }
    }
}
