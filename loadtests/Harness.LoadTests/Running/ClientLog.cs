using System.Globalization;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Serilog;
using Serilog.Core;
using Serilog.Events;
using Serilog.Extensions.Logging;
using Serilog.Formatting.Display;

namespace Harness.LoadTests.Running;

/// <summary>
/// <c>--log-level</c>: where the runner's own clients log their connections' events (GOAWAY, RST_STREAM, protocol
/// errors, replies past a bound; docs/hostile-servers.md, "Tracing the clients"), through Serilog as the services
/// log: to standard error by default, so that standard output's progress and report lines stay as they are.
/// </summary>
internal sealed class ClientLog
{
    private const string Template = "[{Timestamp:HH:mm:ss} {Level:u3}] harness: {Message:lj}{NewLine}{Exception}";

    private readonly Lazy<ILoggerFactory> _factory;

    private ClientLog(LogLevel level, Func<ILoggerFactory> factory)
    {
        Level = level;
        _factory = new Lazy<ILoggerFactory>(factory);
    }

    /// <summary>Nothing logged: a run built in code (tests, a library user's own) unless it asks.</summary>
    public static ClientLog None { get; } = new(LogLevel.None, () => NullLoggerFactory.Instance);

    /// <summary>The least severe level written; <see cref="LogLevel.None"/> writes nothing.</summary>
    public LogLevel Level { get; }

    /// <summary>The clients' logger factory, made on first use.</summary>
    public ILoggerFactory Factory => _factory.Value;

    /// <summary>Events at <paramref name="level"/> and above, one line each, written to <paramref name="writer"/> as they happen.</summary>
    public static ClientLog To(TextWriter writer, LogLevel level) => level == LogLevel.None
        ? None
        : new(level, () => new SerilogLoggerFactory(
            new LoggerConfiguration()
                .MinimumLevel.Is(SerilogLevel(level))
                .WriteTo.Sink(new LineSink(writer))
                .CreateLogger(),
            dispose: true));

    private static LogEventLevel SerilogLevel(LogLevel level) => level switch
    {
        LogLevel.Trace => LogEventLevel.Verbose,
        LogLevel.Debug => LogEventLevel.Debug,
        LogLevel.Information => LogEventLevel.Information,
        LogLevel.Warning => LogEventLevel.Warning,
        LogLevel.Error => LogEventLevel.Error,
        _ => LogEventLevel.Fatal,
    };

    /// <summary>
    /// Each event one line on the writer, as it happens (no queue: a line is out before the run's next output). The
    /// services' console sink (Serilog.Sinks.Console) writes to the process's console only; a test gives a writer.
    /// </summary>
    private sealed class LineSink(TextWriter writer) : ILogEventSink
    {
        private readonly MessageTemplateTextFormatter _format = new(Template, CultureInfo.InvariantCulture);
        private readonly Lock _lock = new();

        public void Emit(LogEvent logEvent)
        {
            lock (_lock)
            {
                _format.Format(logEvent, writer);
                writer.Flush();
            }
        }
    }
}
