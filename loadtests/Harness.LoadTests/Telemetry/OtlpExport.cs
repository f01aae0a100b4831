using System.Diagnostics;
using System.Diagnostics.Metrics;
using Harness.LoadTests.Running;
using Harness.Metrics;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;
using static Harness.LoadTests.Telemetry.TelemetryFamilies;

namespace Harness.LoadTests.Telemetry;

/// <summary>
/// The run's figures over OTLP, through the OpenTelemetry SDK, when the standard variables name an endpoint
/// (<c>OTEL_EXPORTER_OTLP_ENDPOINT</c>, or <c>OTEL_EXPORTER_OTLP_METRICS_ENDPOINT</c>); the SDK reads the rest of them
/// itself (protocol, headers, interval, resource). The same families as <c>--metrics-port</c>, read from the same
/// <see cref="RunFigures"/> by observable instruments at each export; only the latency histogram is recorded request by
/// request, with the same buckets. Instrument names are the Prometheus names without the suffixes (<c>_total</c>, the
/// unit's) that a backend's standard translation appends, so one PromQL serves both paths.
/// </summary>
internal sealed class OtlpExport : IDisposable
{
    /// <summary>The instrumentation scope's name.</summary>
    public const string MeterName = "Harness.LoadTests";

    public const string EndpointVariable = "OTEL_EXPORTER_OTLP_ENDPOINT";
    public const string MetricsEndpointVariable = "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT";
    public const string IntervalVariable = "OTEL_METRIC_EXPORT_INTERVAL";

    /// <summary>The export interval when <c>OTEL_METRIC_EXPORT_INTERVAL</c> is not set: the SDK's 60 s is coarse for a load curve.</summary>
    public static readonly TimeSpan DefaultInterval = TimeSpan.FromSeconds(10);

    // Bounds the exit: a last export to a collector that does not answer must not hold the run's end for long.
    private const int ShutdownTimeoutMilliseconds = 5000;

    private readonly Meter _meter = new(MeterName, typeof(OtlpExport).Assembly.GetName().Version?.ToString());
    private readonly IConfiguration _configuration;
    private MeterProvider? _provider;

    private OtlpExport(IConfiguration configuration)
    {
        _configuration = configuration;
        Latency = _meter.CreateHistogram<double>(TelemetryFamilies.Latency.OtlpName, TelemetryFamilies.Latency.OtlpUnit, TelemetryFamilies.Latency.Help);
    }

    /// <summary>The successes' latency, recorded by each series (<see cref="SeriesFigures"/>).</summary>
    public Histogram<double> Latency { get; }

    /// <summary>Where the figures go, as configured (the metrics endpoint wins, as in the SDK).</summary>
    public string Endpoint => _configuration[MetricsEndpointVariable] is { Length: > 0 } metrics ? metrics : _configuration[EndpointVariable] ?? "";

    /// <summary>The export interval in force.</summary>
    public TimeSpan Interval => int.TryParse(_configuration[IntervalVariable], out var ms) && ms > 0 ? TimeSpan.FromMilliseconds(ms) : DefaultInterval;

    /// <summary>True when <paramref name="configuration"/> (the environment, in a run) names an OTLP endpoint for metrics.</summary>
    public static bool IsConfigured(IConfiguration configuration) =>
        !string.IsNullOrWhiteSpace(configuration[EndpointVariable]) || !string.IsNullOrWhiteSpace(configuration[MetricsEndpointVariable]);

    /// <summary>The export's instruments, before the figures exist; <see cref="Start"/> begins exporting them.</summary>
    public static OtlpExport Create(IConfiguration configuration) => new(configuration);

    /// <summary>Observes <paramref name="figures"/> and starts the SDK's periodic export.</summary>
    public void Start(RunFigures figures)
    {
        Observe(figures);
        var defaultInterval = _configuration[IntervalVariable] is null;
        _provider = Sdk.CreateMeterProviderBuilder()
            // The SDK reads its OTEL_* settings from the IConfiguration in its services: the environment, unless a test gives its own.
            .ConfigureServices(services => services.AddSingleton(_configuration))
            .ConfigureResource(resource =>
            {
                if (string.IsNullOrWhiteSpace(_configuration["OTEL_SERVICE_NAME"]))
                {
                    resource.AddService("harness");
                }
            })
            .AddMeter(MeterName)
            .AddView(TelemetryFamilies.Latency.OtlpName, new ExplicitBucketHistogramConfiguration { Boundaries = [.. LatencyBuckets.Bounds] })
            .AddOtlpExporter((_, reader) =>
            {
                if (defaultInterval)
                {
                    reader.PeriodicExportingMetricReaderOptions.ExportIntervalMilliseconds = (int)DefaultInterval.TotalMilliseconds;
                }
            })
            .Build();
    }

    /// <summary>Exports what is left (the run's last counts), then stops; bounded in time.</summary>
    public void Dispose()
    {
        _provider?.Shutdown(ShutdownTimeoutMilliseconds);
        _provider?.Dispose();
        _meter.Dispose();
    }

    private void Observe(RunFigures figures)
    {
        var run = new TagList();
        foreach (var (name, value) in figures.Identity.LabelPairs)
        {
            run.Add(name, value);
        }

        ObserveGauge(RunInfo, () => [new Measurement<double>(1, run)]);
        ObserveGauge(Phase, () => MetricNames.LoadPhases.Select(p => new Measurement<double>(p == figures.Phase ? 1 : 0, new KeyValuePair<string, object?>(MetricNames.PhaseLabel, p))));
        ObserveCounter(Requests, () => figures.Series().SelectMany(s => s.Statuses().Select(c => new Measurement<long>(c.Requests, s.Tags((MetricNames.StatusLabel, c.Status))))));
        ObserveCounter(Failures, () => figures.Series().SelectMany(s => s.Statuses().Where(c => c.Failures > 0).Select(c => new Measurement<long>(c.Failures, s.Tags((MetricNames.StatusLabel, c.Status))))));
        ObserveGauge(LastSecondLatency, () => figures.Running().SelectMany(s => SeriesFigures.Quantiles(s.Last)
            .Select(q => new Measurement<double>(q.Seconds, s.Series.Tags((MetricNames.QuantileLabel, q.Quantile))))));
        ObserveGauge(figures.Identity.IsOpenModel ? ArrivalRate : Users, () => figures.Running().Select(s => new Measurement<double>(s.Last.Users, s.Series.Tags())));
        ObserveGauge(InFlight, () => figures.Running().Select(s => new Measurement<double>(s.Last.InFlight, s.Series.Tags())));
        foreach (var family in Runner)
        {
            IEnumerable<Measurement<double>> Read() => RunnerSampler.Read().TryGetValue(family.Name, out var value) ? [new Measurement<double>(value)] : [];
            if (family.Type == TelemetryFamilies.Counter)
            {
                ObserveCounter(family, Read);
            }
            else
            {
                ObserveGauge(family, Read);
            }
        }
    }

    private void ObserveGauge(Family family, Func<IEnumerable<Measurement<double>>> observe) =>
        _meter.CreateObservableGauge(family.OtlpName, observe, family.OtlpUnit, family.Help);

    private void ObserveCounter<T>(Family family, Func<IEnumerable<Measurement<T>>> observe)
        where T : struct =>
        _meter.CreateObservableCounter(family.OtlpName, observe, family.OtlpUnit, family.Help);
}
