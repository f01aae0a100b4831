using System.Globalization;
using Harness.GrpcService;
using Harness.LoadTests.Hosting;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Telemetry;
using Harness.ServiceDefaults;
using Xunit.Abstractions;

namespace Harness.LoadTests.Tests.Telemetry;

/// <summary>
/// End to end: a real Prometheus scrapes a short run's runner (<c>--metrics-port</c>) and its service every
/// second, and what it stored is the run's own figures; the same run, with <c>OTEL_EXPORTER_OTLP_ENDPOINT</c> set,
/// reaches a test OTLP receiver.
/// </summary>
[Trait("Category", "EndToEnd")]
public sealed class PrometheusScrapeTests(ITestOutputHelper output) : IDisposable
{
    private static readonly TimeSpan Timeout = TimeSpan.FromMinutes(2);

    private readonly string _folder = HarnessRun.TempFolder();

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Fact]
    public async Task APrometheusScrapingTheRun_StoresItsRequestsPerSeriesAndP99_AndOtlpGetsTheFinalCount()
    {
        // Arrange: a Prometheus scraping the runner's port and the dedicated /metrics of a gRPC service of the test's own
        // each second (the service started while Prometheus gets ready to scrape), and an OTLP receiver.
        var ports = LoopbackPorts.Free(2);
        var (metricsPort, serviceMetricsPort) = (ports[0], ports[1]);
        using var prometheus = await PrometheusServer.StartAsync(new Dictionary<string, string[]>
        {
            ["harness"] = [Loopback(metricsPort)],
            ["service"] = [Loopback(serviceMetricsPort)],
        });
        await using var service = GrpcApp.Build([
            "--Listen:Port=0", "--Listen:AdminPort=0", $"--Listen:MetricsPort={serviceMetricsPort}", "--Serilog:MinimumLevel:Default=Fatal", "--Scheduling:Mode=iocp"]);
        await service.StartAsync();
        await using var receiver = await OtlpReceiver.StartAsync();
        await prometheus.WaitUntilScrapedAsync(targets: 2);
        var environment = new Dictionary<string, string>
        {
            [OtlpExport.EndpointVariable] = receiver.Address.ToString(),
            ["OTEL_EXPORTER_OTLP_PROTOCOL"] = "http/protobuf",
            [OtlpExport.IntervalVariable] = "1000",
        };

        // Act: one series of about 3 s after 1 s of warm-up, the harness a process of its own with the OTLP variables set.
        using var harness = HarnessProcess.Start(
            environment,
            "run", "--target", $"grpc={service.GetBoundAddress()},metrics=http://{Loopback(serviceMetricsPort)}", "--mode-label", "scraped",
            "--operations", "compute", "--iterations", "20000", "--profile", "constant", "--users", "4", "--time-scale", "0.025",
            "--warm-up", "1s", "--metrics-port", metricsPort.ToString(CultureInfo.InvariantCulture), "--output", Path.Combine(_folder, "runs"));
        await harness.WaitForExitAsync(Timeout);
        output.WriteLine(harness.Output);

        // Assert: the run's own count, and how many requests one scrape interval (1 s, at any phase) can hold.
        Assert.Equal(0, harness.ExitCode);
        Assert.Contains($"metrics: http://0.0.0.0:{metricsPort}/metrics", harness.Output, StringComparison.Ordinal);
        var data = RawRunReader.Read(HarnessRun.RunFolder(Path.Combine(_folder, "runs")));
        var series = Assert.Single(data.Manifest.Series);
        var total = series.TotalRequests!.Value;
        var seconds = data.Timelines[series.Id].Select(s => s.Requests).ToList();
        var oneInterval = seconds.Zip(seconds.Skip(1), (a, b) => a + b).Max();
        Assert.True(total > 0 && oneInterval < total, $"{total} requests, up to {oneInterval} in a second: too few to tell a scrape from none");

        var selector = $"{{series=\"{series.Id}\"}}";
        var scraped = await ScalarAsync(prometheus, $"sum(max_over_time(harness_load_requests_total{selector}[5m]))");
        Assert.InRange(scraped, total - oneInterval, total);

        // p99 from the scraped histogram, and from the last-second summary; the service scraped beside the runner. (Not the
        // warm-up's phase: one second long, it may fall to the runner's first scrape, which can outlast the timeout while
        // the page's code is compiled; PrometheusExpositionTests checks it.)
        var p99 = await ScalarAsync(prometheus, $"histogram_quantile(0.99, sum by (le) (max_over_time(harness_load_latency_seconds_bucket{selector}[5m])))");
        Assert.True(p99 > 0 && double.IsFinite(p99), $"p99 {p99}");
        Assert.True(await ScalarAsync(prometheus, $"max(max_over_time(harness_load_last_second_latency_seconds{{series=\"{series.Id}\",quantile=\"0.99\"}}[5m]))") > 0);
        Assert.Equal(1, await ScalarAsync(prometheus, "max_over_time(harness_load_phase{phase=\"measured\"}[5m])"));
        Assert.Equal(1, await ScalarAsync(prometheus, "max_over_time(harness_info{job=\"service\",mode=\"iocp\"}[5m])"));

        // OTLP: the exporter's last export, sent as the run ended, holds the run's final count exactly.
        var otlp = receiver.Last("harness_load_requests");
        Assert.NotNull(otlp);
        Assert.Equal(total, otlp.Sum.DataPoints.Where(p => OtlpReceiver.Attributes(p.Attributes)["series"] == series.Id).Sum(OtlpReceiver.Value));
        Assert.NotNull(receiver.Last("harness_load_latency"));
    }

    private static string Loopback(int port) => string.Create(CultureInfo.InvariantCulture, $"127.0.0.1:{port}");

    private async Task<double> ScalarAsync(PrometheusServer prometheus, string promql)
    {
        var result = await prometheus.QueryAsync(promql);
        output.WriteLine($"{promql} = {string.Join(", ", result.Values)}");
        if (result.Count != 1)
        {
            // How the scrapes went: each target's up and scrape duration over the test.
            output.WriteLine(await prometheus.RawAsync("up[5m]"));
            output.WriteLine(await prometheus.RawAsync("scrape_duration_seconds[5m]"));
        }

        Assert.True(result.Count == 1, $"{promql} returned {result.Count} series; prometheus said: {prometheus.Output}");
        return result.Values.Single();
    }
}
