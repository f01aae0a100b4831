using Harness.LoadTests.Recording;
using static Harness.LoadTests.Reporting.Tests.Runs;

namespace Harness.LoadTests.Reporting.Tests;

public sealed class SeriesSummaryTests
{
    private static readonly SeriesInfo Info = Series("grpc", "compute", "iocp");

    [Fact]
    public void Latency_comes_from_the_merged_histogram_not_an_average_of_seconds()
    {
        // Second 0: 50 × 1 ms and 50 × 2 ms; second 1: 100 × 3 ms. All 200 values: mean 2.25 ms, p50 2 ms, p90 3 ms.
        // Averaging the seconds' medians would give (1.5 + 3) / 2 = 2.25 ms for p50 instead.
        var summary = SeriesSummary.From(Info,
        [
            Sample(0, 10, Histogram((1000, 50), (2000, 50))),
            Sample(1, 10, Histogram((3000, 100))),
        ]);

        Assert.Equal(200, summary.Latency.Count);
        Assert.Equal(2.25, summary.Latency.MeanMs, 6);
        Assert.Equal(2.0, summary.Latency.P50Ms, 6);
        Assert.Equal(3.0, summary.Latency.P90Ms, 6);
        Assert.Equal(3.0, summary.Latency.P99Ms, 6);
        Assert.Equal(3.0, summary.Latency.MaxMs, 6);
        Assert.Equal(1.0, summary.LatencyPercentileMs(25), 6);
    }

    [Fact]
    public void Requests_per_second_counts_only_seconds_with_load_or_completions()
    {
        // Seconds 0–1 complete 300 requests; second 2 has users but nothing completes (counts: throughput fell);
        // second 3 is a pause (no users, nothing completes) and does not count. 300 / 3 s = 100 req/s.
        var summary = SeriesSummary.From(Info,
        [
            Sample(0, 10, Histogram((1000, 100))),
            Sample(1, 10, Histogram((1000, 200))),
            Sample(2, 10, new LatencyHistogram()),
            Sample(3, 0, new LatencyHistogram()),
        ]);

        Assert.Equal(300, summary.Requests);
        Assert.Equal(4, summary.Seconds);
        Assert.Equal(3, summary.ActiveSeconds);
        Assert.Equal(100, summary.RequestsPerSecond, 9);
        Assert.Equal(10, summary.PeakUsers);
    }

    [Fact]
    public void Errors_are_counted_rated_and_broken_down_by_status()
    {
        var summary = SeriesSummary.From(Info,
        [
            Sample(0, 5, Histogram((1000, 94)), failures: 6, statuses: new Dictionary<string, long> { ["timeout"] = 2, ["Unavailable"] = 4 }),
            Sample(1, 5, Histogram((1000, 96)), failures: 4, statuses: new Dictionary<string, long> { ["timeout"] = 4 }),
        ]);

        Assert.Equal(10, summary.Failures);
        Assert.Equal(0.05, summary.ErrorRate, 9);
        Assert.Equal([new("timeout", 6L), new("Unavailable", 4L)], summary.FailuresByStatus);
    }

    [Fact]
    public void Server_peaks_and_context_switches_per_request_come_from_the_scraped_metrics()
    {
        // Context switches grow from 1000 + 100 to 1300 + 150: 350 over 200 requests = 1.75 per request.
        // CPU seconds grow 2.0 → 3.5 over 2 s of scrapes: 75 % of one core.
        var summary = SeriesSummary.From(Info,
        [
            Sample(0, 5, Histogram((1000, 50)), server: Server("iocp", osThreads: 30, busy: 2, queue: 0, cpuSeconds: 2.0, voluntary: 1000, involuntary: 100, workingSetMb: 90)),
            Sample(1, 5, Histogram((1000, 50)), server: Server("iocp", osThreads: 45, busy: 2, queue: 7, cpuSeconds: 2.5, voluntary: 1100, involuntary: 120, workingSetMb: 120)),
            Sample(2, 5, Histogram((1000, 100)), server: Server("iocp", osThreads: 40, busy: 1, queue: 3, cpuSeconds: 3.5, voluntary: 1300, involuntary: 150, workingSetMb: 100)),
        ]);

        Assert.Equal(3, summary.ServerSamples);
        Assert.Equal(45, summary.PeakThreads);
        Assert.Equal(2, summary.PeakBusyThreads);
        Assert.Equal(7, summary.PeakQueueLength);
        Assert.Equal(1.75, summary.ContextSwitchesPerRequest!.Value, 9);
        Assert.Equal(75, summary.MeanCpuPercent!.Value, 9);
        Assert.Equal(120, summary.PeakWorkingSetMb!.Value, 9);
    }

    [Fact]
    public void A_target_restart_counts_the_new_process_counters_from_zero()
    {
        // 1000 → 1200 (+200), restart to 50 (+50 since the restart), → 80 (+30): 280 over 140 requests.
        static Dictionary<string, double> Switches(double voluntary) => new()
        {
            ["process_voluntary_context_switches_total"] = voluntary,
            ["process_involuntary_context_switches_total"] = 0,
        };

        var summary = SeriesSummary.From(Info,
        [
            Sample(0, 5, Histogram((1000, 35)), server: Switches(1000)),
            Sample(1, 5, Histogram((1000, 35)), server: Switches(1200)),
            Sample(2, 5, Histogram((1000, 35))),
            Sample(3, 5, Histogram((1000, 35)), server: Switches(50)),
            Sample(4, 5, new LatencyHistogram(), server: Switches(80)),
        ]);

        Assert.Equal(2.0, summary.ContextSwitchesPerRequest!.Value, 9);
        Assert.Equal(4, summary.ServerSamples);
    }

    [Fact]
    public void Metrics_match_by_name_whatever_their_labels_and_unavailable_values_are_ignored()
    {
        var server = new Dictionary<string, double>
        {
            ["process_threads"] = -1,
            ["harness_threadpool_threads"] = 10,
            ["harness_scheduler_threads{mode=\"custompool\"}"] = 20,
            ["harness_scheduler_threads_spare"] = 1000,
            ["harness_scheduler_queue_length{mode=\"custompool\"}"] = 4,
        };
        Assert.Equal(30, ServerMetrics.Threads(server));
        Assert.Equal(4, ServerMetrics.QueueLength(server));

        // In threadpool mode the scheduler's threads are the ThreadPool's: counted once.
        server.Remove("harness_scheduler_threads{mode=\"custompool\"}");
        server["harness_scheduler_threads{mode=\"threadpool\"}"] = 10;
        Assert.Equal(10, ServerMetrics.Threads(server));

        server["process_threads"] = 55;
        Assert.Equal(55, ServerMetrics.Threads(server));
        Assert.Null(ServerMetrics.ContextSwitches(server));
        Assert.Equal("harness_scheduler_threads", ServerMetrics.NameOf("harness_scheduler_threads{mode=\"iocp\"}"));
        Assert.Equal("2", ServerMetrics.LabelOf("harness_info{service=\"grpc\",processors=\"2\"}", "processors"));
    }

    [Fact]
    public void A_series_without_server_samples_has_no_server_figures()
    {
        var summary = SeriesSummary.From(Info, [Sample(0, 5, Histogram((1000, 10))), Sample(1, 5, Histogram((1000, 10)))]);

        Assert.Equal(0, summary.ServerSamples);
        Assert.Null(summary.PeakThreads);
        Assert.Null(summary.PeakQueueLength);
        Assert.Null(summary.ContextSwitchesPerRequest);
        Assert.Null(summary.MeanCpuPercent);
    }

    [Fact]
    public void Open_model_series_carry_the_intended_start_latency_beside_the_service_time()
    {
        var open = Series("grpc", "compute", "iocp", model: "open");
        var summary = SeriesSummary.From(open,
        [
            Sample(0, 20, Histogram((10_000, 20)), intended: Histogram((10_000, 10), (50_000, 10))),
            Sample(1, 20, Histogram((10_000, 20)), intended: Histogram((90_000, 20))),
        ]);

        Assert.True(summary.IsOpenModel);
        Assert.Equal(10, summary.Latency.MeanMs, 6);
        Assert.NotNull(summary.IntendedLatency);
        Assert.Equal((10 * 10 + 10 * 50 + 20 * 90) / 40.0, summary.IntendedLatency.MeanMs, 6);
        Assert.Equal(90, summary.IntendedLatency.P99Ms, 0);
        Assert.Null(SeriesSummary.From(Info, [Sample(0, 1, Histogram((1000, 1)))]).IntendedLatency);
    }

    [Fact]
    public void Per_second_rows_turn_counters_into_rates_and_leave_gaps_empty()
    {
        var rows = SecondRow.From(
        [
            Sample(0, 5, Histogram((1000, 10)), server: Server("iocp", 20, 2, 0, cpuSeconds: 10, voluntary: 100, involuntary: 0)),
            Sample(1, 5, Histogram((1000, 10)), server: Server("iocp", 20, 2, 0, cpuSeconds: 11.5, voluntary: 400, involuntary: 0)),
            Sample(3, 5, Histogram((1000, 10)), server: Server("iocp", 20, 2, 0, cpuSeconds: 12.5, voluntary: 1000, involuntary: 0)),
            Sample(4, 5, Histogram((1000, 10)), server: Server("iocp", 20, 2, 0, cpuSeconds: 0.2, voluntary: 10, involuntary: 0)),
        ]);

        Assert.Equal([0, 1, 3, 4], rows.Select(r => r.Second));
        Assert.Null(rows[0].CpuPercent);
        Assert.Equal(150, rows[1].CpuPercent!.Value, 9);
        Assert.Equal(300, rows[1].ContextSwitchesPerSecond!.Value, 9);

        // Across the missing second the rate spreads over both seconds; after a restart it is unknown.
        Assert.Equal(50, rows[2].CpuPercent!.Value, 9);
        Assert.Equal(300, rows[2].ContextSwitchesPerSecond!.Value, 9);
        Assert.Null(rows[3].CpuPercent);
    }

    [Fact]
    public void Container_throttling_is_the_share_of_quota_periods_throttled_and_absent_without_container_stats()
    {
        static Dictionary<string, double> Container(double periods, double throttled) => new()
        {
            [ServerMetrics.ContainerCpuPeriodsTotal] = periods,
            [ServerMetrics.ContainerThrottledPeriodsTotal] = throttled,
        };

        var rows = SecondRow.From(
        [
            Sample(0, 5, Histogram((1000, 10)), server: Container(100, 10)),
            Sample(1, 5, Histogram((1000, 10)), server: Container(110, 15)),
            Sample(2, 5, Histogram((1000, 10)), server: Container(110, 15)),
        ]);
        var plain = SecondRow.From([Sample(0, 5, Histogram((1000, 10)), server: Server("iocp", 20, 2, 0, 1, 1, 0))]);

        Assert.Null(rows[0].ThrottledPercent);
        Assert.Equal(50, rows[1].ThrottledPercent!.Value, 9);
        Assert.Null(rows[2].ThrottledPercent);
        Assert.Null(plain[0].ThrottledPercent);
    }
}
