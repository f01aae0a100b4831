using Harness.LoadTests.Engine;
using Harness.LoadTests.Running;
using Harness.LoadTests.Telemetry;
using Harness.LoadTests.Tests.Telemetry.Otlp;
using Microsoft.Extensions.Configuration;

namespace Harness.LoadTests.Tests.Telemetry;

/// <summary>The run's figures over OTLP/HTTP to a receiver of the test's own, and nothing at all without an endpoint.</summary>
public sealed class OtlpExportTests
{
    private static readonly RunIdentity Identity = new("r1", "quick", IsOpenModel: false, Agent: "");

    [Fact]
    public async Task WithAnEndpoint_TheFiguresReachTheReceiver_UnderTheirNamesUnitsAndLabels()
    {
        // Arrange: an exporter pointed at the receiver, one series of three successes and a failure, then a measured second.
        await using var receiver = await OtlpReceiver.StartAsync();
        var telemetry = await RunTelemetry.StartAsync(metricsPort: null, Identity, Configuration(receiver.Address), CancellationToken.None);
        Assert.NotNull(telemetry);
        var series = telemetry.Figures.StartSeries(new SeriesLabels("grpc-compute-iocp", "grpc", "compute", "iocp"), warmsUp: false);
        foreach (var (ms, success) in new[] { (1.0, true), (4.0, true), (40.0, true), (2.0, false) })
        {
            series.OnRequest(new RequestSample("s", TimeSpan.Zero, TimeSpan.Zero, TimeSpan.FromMilliseconds(ms), success, success ? null : "UNAVAILABLE", null));
        }

        telemetry.SecondPassed(new ProgressSecond(
            "grpc-compute-iocp", 0, 1, 3, WarmUp: false, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(5), Users: 6, RunningUsers: 6, OpenModel: false, RequestsPerSecond: 4, Errors: 1,
            P50Ms: 4, P99Ms: 40, InFlight: 2, Requests: 4, Failures: 1, RunLeft: TimeSpan.FromSeconds(4)));

        // Act: disposing sends the last export.
        await telemetry.DisposeAsync();

        // Assert
        Assert.Contains(receiver.Metrics, m => m.Scope == OtlpExport.MeterName);
        var requests = receiver.Last("harness_load_requests")!;
        Assert.True(requests.Sum.IsMonotonic);
        Assert.Equal(AggregationTemporality.Cumulative, requests.Sum.AggregationTemporality);
        var byStatus = requests.Sum.DataPoints.ToDictionary(p => OtlpReceiver.Attributes(p.Attributes)["status"], OtlpReceiver.Value);
        Assert.Equal(new Dictionary<string, double> { ["OK"] = 3, ["UNAVAILABLE"] = 1 }, byStatus);
        Assert.Equal(
            new Dictionary<string, string> { ["series"] = "grpc-compute-iocp", ["stack"] = "grpc", ["operation"] = "compute", ["mode"] = "iocp", ["status"] = "OK" },
            OtlpReceiver.Attributes(requests.Sum.DataPoints.Single(p => OtlpReceiver.Value(p) == 3).Attributes));
        Assert.Equal(1, OtlpReceiver.Value(Assert.Single(receiver.Last("harness_load_failures")!.Sum.DataPoints)));

        var latency = receiver.Last("harness_load_latency")!;
        Assert.Equal("s", latency.Unit);
        var histogram = Assert.Single(latency.Histogram.DataPoints);
        Assert.Equal(3UL, histogram.Count);
        Assert.Equal(LatencyBuckets.Bounds, histogram.ExplicitBounds);
        Assert.Equal(0.045, histogram.Sum, 9);

        var quantiles = receiver.Last("harness_load_last_second_latency")!.Gauge.DataPoints
            .ToDictionary(p => OtlpReceiver.Attributes(p.Attributes)["quantile"], OtlpReceiver.Value);
        Assert.Equal(new Dictionary<string, double> { ["0.5"] = 0.004, ["0.99"] = 0.04 }, quantiles);
        Assert.Equal(6, OtlpReceiver.Value(Assert.Single(receiver.Last("harness_load_users")!.Gauge.DataPoints)));
        Assert.Equal("s", receiver.Last("harness_runner_cpu")!.Unit);
        Assert.Equal("By", receiver.Last("harness_runner_working_set")!.Unit);
        Assert.Contains(receiver.Last("harness_load_phase")!.Gauge.DataPoints,
            p => OtlpReceiver.Attributes(p.Attributes)["phase"] == "measured" && OtlpReceiver.Value(p) == 1);
    }

    [Fact]
    public async Task WithoutAnEndpointOrAPort_NothingIsStarted()
    {
        // Arrange: the variables of an OTLP setup, except the endpoint.
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["OTEL_EXPORTER_OTLP_PROTOCOL"] = "http/protobuf",
            ["OTEL_EXPORTER_OTLP_ENDPOINT"] = " ",
        }).Build();

        // Act
        var telemetry = await RunTelemetry.StartAsync(metricsPort: null, Identity, configuration, CancellationToken.None);

        // Assert
        Assert.Null(telemetry);
    }

    private static IConfiguration Configuration(Uri endpoint) => new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?>
    {
        ["OTEL_EXPORTER_OTLP_ENDPOINT"] = endpoint.ToString(),
        ["OTEL_EXPORTER_OTLP_PROTOCOL"] = "http/protobuf",
        ["OTEL_METRIC_EXPORT_INTERVAL"] = "60000",
    }).Build();
}
