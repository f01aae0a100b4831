using Harness.LoadTests.Running;
using Microsoft.Extensions.Configuration;

namespace Harness.LoadTests.Telemetry;

/// <summary>
/// The run's figures for the monitoring a team already has, while the run lasts: Prometheus text on
/// <c>--metrics-port</c> (<see cref="MetricsServer"/>, <see cref="PrometheusExposition"/>) and OTLP when
/// <c>OTEL_EXPORTER_OTLP_ENDPOINT</c> is set (<see cref="OtlpExport"/>), both reading one <see cref="RunFigures"/>, which
/// the series loop feeds as an <see cref="IRunFollower"/> and each second of the progress line updates
/// (<see cref="SecondPassed"/>, as for <c>--live</c>). Disposing stops the page and sends OTLP its last export.
/// </summary>
internal sealed class RunTelemetry : IRunSink
{
    private readonly MetricsServer? _server;
    private readonly OtlpExport? _export;

    private RunTelemetry(RunFigures figures, MetricsServer? server, OtlpExport? export)
    {
        Figures = figures;
        _server = server;
        _export = export;
    }

    public RunFigures Figures { get; }

    public IRunFollower Follower => Figures;

    /// <summary>The Prometheus page's address; null without <c>--metrics-port</c>.</summary>
    public string? MetricsAddress => _server?.Address;

    /// <summary>One line per exporter, for the console.</summary>
    public IEnumerable<string> Describe()
    {
        if (_server is not null)
        {
            yield return $"metrics: {_server.Address} (Prometheus text)";
        }

        if (_export is not null)
        {
            yield return $"otlp: exporting to {_export.Endpoint} every {_export.Interval.TotalSeconds:0.###} s";
        }
    }

    /// <summary>Starts what is asked for: nothing (null) when there is no port and no OTLP endpoint.</summary>
    /// <param name="otlp">Where the OTEL_* settings come from; the process's environment when null.</param>
    /// <exception cref="MetricsPortException">The port cannot be listened on.</exception>
    public static async Task<RunTelemetry?> StartAsync(int? metricsPort, RunIdentity identity, IConfiguration? otlp, CancellationToken cancellationToken)
    {
        otlp ??= new ConfigurationBuilder().AddEnvironmentVariables().Build();
        var export = OtlpExport.IsConfigured(otlp) ? OtlpExport.Create(otlp) : null;
        if (metricsPort is null && export is null)
        {
            return null;
        }

        var figures = new RunFigures(identity, export?.Latency);
        try
        {
            var server = metricsPort is { } port
                ? await MetricsServer.StartAsync(port, () => PrometheusExposition.Render(figures, RunnerSampler.Read()), cancellationToken)
                : null;
            export?.Start(figures);
            return new RunTelemetry(figures, server, export);
        }
        catch
        {
            export?.Dispose();
            throw;
        }
    }

    /// <summary>A second of the current series, as the progress line printed it.</summary>
    public void SecondPassed(ProgressSecond second) => Figures.SecondPassed(second);

    public async ValueTask DisposeAsync()
    {
        if (_server is not null)
        {
            await _server.DisposeAsync();
        }

        _export?.Dispose();
    }
}
