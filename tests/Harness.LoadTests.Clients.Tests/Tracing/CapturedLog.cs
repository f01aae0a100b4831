using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Clients.Tests.Tracing;

/// <summary>A logger factory that keeps every record, at every level, for a test to read.</summary>
internal sealed class CapturedLog : ILoggerFactory
{
    private readonly ConcurrentQueue<Record> _records = new();

    public IReadOnlyList<Record> Records => [.. _records];

    public ILogger CreateLogger(string categoryName) => new Logger(this);

    public void AddProvider(ILoggerProvider provider) => throw new NotSupportedException();

    public void Dispose()
    {
    }

    /// <summary>The records of one event id.</summary>
    public IReadOnlyList<Record> Of(int eventId) => [.. _records.Where(r => r.EventId == eventId)];

    internal sealed record Record(int EventId, LogLevel Level, string Message);

    private sealed class Logger(CapturedLog log) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            log._records.Enqueue(new Record(eventId.Id, logLevel, formatter(state, exception)));
    }
}
