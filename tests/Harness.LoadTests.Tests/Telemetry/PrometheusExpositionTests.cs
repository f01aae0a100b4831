using System.Text.RegularExpressions;
using Harness.LoadTests.Distributed.Coordination;
using Harness.LoadTests.Engine;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Running;
using Harness.LoadTests.Telemetry;
using Harness.LoadTests.Tests.Distributed;
using Harness.Metrics;

namespace Harness.LoadTests.Tests.Telemetry;

/// <summary>
/// The runner's /metrics page read back with the parser the runner uses for the services' pages: every line a sample
/// or a comment, every sample of a declared family, and the figures that were fed in.
/// </summary>
public sealed partial class PrometheusExpositionTests
{
    private const string Series = "grpc-compute-iocp";
    private const string Labels = "series=\"grpc-compute-iocp\",stack=\"grpc\",operation=\"compute\",mode=\"iocp\"";

    private static readonly IReadOnlyDictionary<string, double> Runner = new Dictionary<string, double>
    {
        [MetricNames.RunnerCpuSecondsTotal] = 1.5,
        [MetricNames.RunnerWorkingSetBytes] = 1e8,
        [MetricNames.RunnerThreads] = 30,
        [MetricNames.RunnerGcHeapBytes] = 2e7,
    };

    [Fact]
    public void Render_WhileASeriesRuns_GivesItsCountsHistogramLastSecondAndPhase_InWellFormedText()
    {
        // Arrange: three successes (0.8 ms, 4 ms, 2 s) and two failures, then a measured second.
        var figures = new RunFigures(new RunIdentity("r1", "quick", IsOpenModel: false, Agent: ""));
        var series = figures.StartSeries(new SeriesLabels(Series, "grpc", "compute", "iocp"), warmsUp: true);
        var starting = PrometheusTextParser.Parse(PrometheusExposition.Render(figures, Runner));
        Feed(series);
        figures.SecondPassed(Second(warmUp: false, draining: false));

        // Act
        var text = PrometheusExposition.Render(figures, Runner);
        var samples = PrometheusTextParser.Parse(text, out var malformed);

        // Assert: text a Prometheus reads, whose every sample belongs to a family declared once, counters ending _total.
        Assert.Equal(0, malformed);
        AssertFamiliesDeclared(text, samples);
        Assert.Equal(1, samples["harness_load_run_info{run=\"r1\",profile=\"quick\",model=\"closed\",agent=\"\"}"]);
        Assert.Equal(3, samples[$"harness_load_requests_total{{{Labels},status=\"OK\"}}"]);
        Assert.Equal(2, samples[$"harness_load_requests_total{{{Labels},status=\"UNAVAILABLE\"}}"]);
        Assert.Equal(2, samples[$"harness_load_failures_total{{{Labels},status=\"UNAVAILABLE\"}}"]);
        Assert.False(samples.ContainsKey($"harness_load_failures_total{{{Labels},status=\"OK\"}}"));

        // Buckets are cumulative, upper bounds inclusive, +Inf the count of successes.
        Assert.Equal(0, samples[$"harness_load_latency_seconds_bucket{{{Labels},le=\"0.0005\"}}"]);
        Assert.Equal(1, samples[$"harness_load_latency_seconds_bucket{{{Labels},le=\"0.001\"}}"]);
        Assert.Equal(2, samples[$"harness_load_latency_seconds_bucket{{{Labels},le=\"0.005\"}}"]);
        Assert.Equal(2, samples[$"harness_load_latency_seconds_bucket{{{Labels},le=\"1.5\"}}"]);
        Assert.Equal(3, samples[$"harness_load_latency_seconds_bucket{{{Labels},le=\"2\"}}"]);
        Assert.Equal(3, samples[$"harness_load_latency_seconds_bucket{{{Labels},le=\"+Inf\"}}"]);
        Assert.Equal(3, samples[$"harness_load_latency_seconds_count{{{Labels}}}"]);
        Assert.Equal(2.0048, samples[$"harness_load_latency_seconds_sum{{{Labels}}}"], 6);

        Assert.Equal(0.004, samples[$"harness_load_last_second_latency_seconds{{{Labels},quantile=\"0.5\"}}"]);
        Assert.Equal(2.0, samples[$"harness_load_last_second_latency_seconds{{{Labels},quantile=\"0.99\"}}"]);
        Assert.Equal(3, samples[$"harness_load_last_second_latency_seconds_count{{{Labels}}}"]);
        Assert.Equal(8, samples[$"harness_load_users{{{Labels}}}"]);
        Assert.False(samples.Keys.Any(k => k.StartsWith(MetricNames.LoadArrivalRate, StringComparison.Ordinal)), "a closed model has no arrival rate");
        Assert.Equal(3, samples[$"harness_load_requests_in_flight{{{Labels}}}"]);
        Assert.Equal(
            [("idle", 0.0), ("warm_up", 0.0), ("measured", 1.0), ("draining", 0.0)],
            MetricNames.LoadPhases.Select(p => (p, samples[$"harness_load_phase{{phase=\"{p}\"}}"])));
        Assert.Equal(1, starting["harness_load_phase{phase=\"warm_up\"}"]);
        Assert.Equal(1.5, samples[MetricNames.RunnerCpuSecondsTotal]);
        Assert.Equal(1e8, samples[MetricNames.RunnerWorkingSetBytes]);
    }

    [Fact]
    public void Render_AfterTheSeriesEnded_KeepsItsCounters_DropsItsLastSecond_AndIsIdle()
    {
        // Arrange: an open-model series that drained, then ended.
        var figures = new RunFigures(new RunIdentity("r2", "inject", IsOpenModel: true, Agent: "agent-1-of-2"));
        var series = figures.StartSeries(new SeriesLabels(Series, "grpc", "compute", "iocp"), warmsUp: false);
        Feed(series);
        figures.SecondPassed(Second(warmUp: false, draining: true));
        var draining = PrometheusTextParser.Parse(PrometheusExposition.Render(figures, Runner));
        figures.EndSeries(Series);

        // Act
        var text = PrometheusExposition.Render(figures, Runner);
        var samples = PrometheusTextParser.Parse(text, out var malformed);

        // Assert
        Assert.Equal(0, malformed);
        AssertFamiliesDeclared(text, samples);
        Assert.Equal(1, draining["harness_load_phase{phase=\"draining\"}"]);
        Assert.Equal(8, draining[$"harness_load_arrival_rate_per_second{{{Labels}}}"]);
        Assert.Equal(1, samples["harness_load_phase{phase=\"idle\"}"]);
        Assert.Equal(0, samples["harness_load_phase{phase=\"draining\"}"]);
        Assert.Equal(3, samples[$"harness_load_requests_total{{{Labels},status=\"OK\"}}"]);
        Assert.Equal(3, samples[$"harness_load_last_second_latency_seconds_count{{{Labels}}}"]);
        Assert.DoesNotContain(samples.Keys, k => k.Contains("quantile=", StringComparison.Ordinal)
            || k.StartsWith(MetricNames.LoadArrivalRate, StringComparison.Ordinal) || k.StartsWith(MetricNames.LoadRequestsInFlight, StringComparison.Ordinal));
        Assert.Equal(1, samples["harness_load_run_info{run=\"r2\",profile=\"inject\",model=\"open\",agent=\"agent-1-of-2\"}"]);
    }

    [Fact]
    public void Render_ForTheCoordinator_CountsAgentsByState()
    {
        // Arrange: two of three agents registered.
        var state = new CoordinatorState(3, "run-7", TimeSpan.FromMinutes(1), new ManualClock(DateTimeOffset.UnixEpoch));
        state.Register(new RegisterRequest(null, 3, "host-a", ["grpc-compute-a"], "quick at time scale 1"));
        state.Register(new RegisterRequest(null, 3, "host-b", ["grpc-compute-a"], "quick at time scale 1"));

        // Act
        var text = CoordinatorExposition.Render("run-7", state.Figures(), Runner);
        var samples = PrometheusTextParser.Parse(text, out var malformed);

        // Assert
        Assert.Equal(0, malformed);
        AssertFamiliesDeclared(text, samples);
        Assert.Equal(3, samples["harness_coordinator_agents_expected{run=\"run-7\"}"]);
        Assert.Equal(2, samples["harness_coordinator_agents{run=\"run-7\",state=\"registered\"}"]);
        Assert.Equal(0, samples["harness_coordinator_agents{run=\"run-7\",state=\"uploaded\"}"]);
        Assert.Equal(0, samples["harness_coordinator_aborted{run=\"run-7\"}"]);
        Assert.Equal(30, samples[MetricNames.RunnerThreads]);
    }

    private static void Feed(ISeriesFollower series)
    {
        foreach (var (ms, status) in new (double, string?)[] { (0.8, null), (4, null), (2000, null), (3, "UNAVAILABLE"), (5, "UNAVAILABLE") })
        {
            series.OnRequest(new RequestSample(Series, TimeSpan.Zero, TimeSpan.Zero, TimeSpan.FromMilliseconds(ms), status is null, status, null));
        }
    }

    private static ProgressSecond Second(bool warmUp, bool draining) => new(
        Series, 0, 1, 5, warmUp, TimeSpan.FromSeconds(3), TimeSpan.FromSeconds(10), Users: 8, RunningUsers: 8, OpenModel: false, RequestsPerSecond: 5, Errors: 2,
        P50Ms: 4, P99Ms: 2000, InFlight: 3, Requests: 5, Failures: 2, RunLeft: TimeSpan.FromSeconds(5), Draining: draining);

    /// <summary>Each sample's family has one TYPE line; a counter's name ends in _total; histogram and summary samples are their suffixed names.</summary>
    private static void AssertFamiliesDeclared(string text, IReadOnlyDictionary<string, double> samples)
    {
        var types = TypeLine().Matches(text).Select(m => (Name: m.Groups[1].Value, Type: m.Groups[2].Value)).ToList();
        Assert.Equal(types.Count, types.Select(t => t.Name).Distinct().Count());
        Assert.All(types.Where(t => t.Type == "counter"), t => Assert.EndsWith("_total", t.Name, StringComparison.Ordinal));
        foreach (var key in samples.Keys)
        {
            var name = key.Split('{')[0];
            var family = types.SingleOrDefault(t => t.Name == name || (t.Type is "histogram" or "summary" && name.StartsWith(t.Name + "_", StringComparison.Ordinal)
                && name[(t.Name.Length + 1)..] is "bucket" or "sum" or "count"));
            Assert.True(family.Name is not null, $"{key} has no TYPE line of its own");
        }
    }

    [GeneratedRegex(@"^# TYPE (\S+) (counter|gauge|histogram|summary)$", RegexOptions.Multiline)]
    private static partial Regex TypeLine();
}
