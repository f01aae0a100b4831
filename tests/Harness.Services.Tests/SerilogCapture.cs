using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;
using Serilog;
using Serilog.Configuration;
using Serilog.Core;
using Serilog.Events;

namespace Harness.Services.Tests;

/// <summary>
/// A Serilog sink, named in a service's own configuration, that hands its events to a <see cref="CapturingLoggerProvider"/>:
/// the harness's services log through Serilog, built from configuration, so a test reaches their logs this way.
/// </summary>
public static class SerilogCapture
{
    private static readonly ConcurrentDictionary<string, CapturingLoggerProvider> Captures = new();

    /// <summary>Configuration arguments that add the sink to a service, and where its entries go.</summary>
    public static (string[] Args, CapturingLoggerProvider Logs) Create()
    {
        var key = Guid.NewGuid().ToString("N");
        var logs = Captures.GetOrAdd(key, _ => new CapturingLoggerProvider());
        string[] args =
        [
            $"--Serilog:Using:0={typeof(SerilogCapture).Assembly.GetName().Name}",
            $"--Serilog:WriteTo:0:Name={nameof(HarnessTestCapture)}",
            $"--Serilog:WriteTo:0:Args:key={key}",
        ];
        return (args, logs);
    }

    /// <summary>Found by Serilog's configuration reader through <c>Serilog:Using</c>.</summary>
    public static LoggerConfiguration HarnessTestCapture(this LoggerSinkConfiguration sinks, string key)
    {
        ArgumentNullException.ThrowIfNull(sinks);
        return sinks.Sink(new Sink(Captures[key]));
    }

    private sealed class Sink(CapturingLoggerProvider logs) : ILogEventSink
    {
        public void Emit(LogEvent logEvent)
        {
            var category = logEvent.Properties.TryGetValue("SourceContext", out var source) && source is ScalarValue { Value: string name } ? name : "";
            var level = logEvent.Level switch
            {
                LogEventLevel.Fatal => LogLevel.Critical,
                LogEventLevel.Error => LogLevel.Error,
                LogEventLevel.Warning => LogLevel.Warning,
                LogEventLevel.Information => LogLevel.Information,
                LogEventLevel.Debug => LogLevel.Debug,
                _ => LogLevel.Trace,
            };
            logs.CreateLogger(category).Log(level, default, logEvent.RenderMessage(), logEvent.Exception, static (message, _) => message);
        }
    }
}
