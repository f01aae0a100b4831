using Harness.LoadTests.Recording;
using static Harness.LoadTests.Reporting.Tests.Runs;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>Warm-up seconds stay in the files, the CSV and the charts, and out of every figure, so no mode pays for its cold start.</summary>
public sealed class WarmUpTests : IDisposable
{
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "harness-warmup-" + Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }

    // Seconds 0–2 are a cold start (2.5 s of warm-up): 40 users, 10 requests a second at 900 ms, 300 threads,
    // a failure each. Then 4 seconds of 100 requests at 10 ms with 20 users and 30 threads. Context switches grow by
    // 1000 a second throughout.
    private static IReadOnlyList<SecondSample> ColdStart() =>
    [
        .. Enumerable.Range(0, 3).Select(s => Sample(s, 40, Histogram((900_000, 10)), failures: 1, server: Server("iocp", 300, 2, 50, s, 1000 * s, 0))),
        .. Enumerable.Range(3, 4).Select(s => Sample(s, 20, Histogram((10_000, 100)), server: Server("iocp", 30, 2, 0, s, 1000 * s, 0))),
    ];

    private static RunData WarmRun(string runId = "run", double warmUp = 2.5, Func<IReadOnlyList<SecondSample>>? timeline = null) =>
        Run([(Series("grpc", "compute", "iocp") with { WarmUpSeconds = warmUp }, (timeline ?? ColdStart)())], runId: runId);

    [Fact]
    public void Warm_up_seconds_are_left_out_of_every_summary_figure()
    {
        var summary = SeriesSummary.ForRun(WarmRun()).Single();

        Assert.Equal((4, 3), (summary.Seconds, summary.WarmUpSecondsLeftOut));
        Assert.Equal((400L, 0L), (summary.Requests, summary.Failures));
        Assert.Equal(10, summary.Latency.MaxMs, 6);
        Assert.Equal(100, summary.RequestsPerSecond, 9);
        Assert.Equal(20, summary.PeakUsers);
        Assert.Equal(30, summary.PeakThreads);
        Assert.Equal(0, summary.PeakQueueLength);

        // Counters count from the warm-up's last scrape (second 2): 4 s × 1000 switches over 400 requests.
        Assert.Equal(10, summary.ContextSwitchesPerRequest!.Value, 9);
        Assert.Empty(summary.FailuresByStatus);
    }

    [Fact]
    public void Thresholds_ratios_and_compare_ignore_the_warm_up()
    {
        var run = WarmRun();
        var cold = WarmRun("cold", warmUp: 0);

        var warm = ThresholdEvaluator.Evaluate(run, [Threshold.Parse("p99<20ms"), Threshold.Parse("errors<=0"), Threshold.Parse("threads<50")]);
        var unwarmed = ThresholdEvaluator.Evaluate(cold, [Threshold.Parse("p99<20ms")]);

        // The same series with an all-fast timeline compares at 0 % once both leave the warm-up out.
        var fast = WarmRun("fast", timeline: () => [.. Enumerable.Range(0, 7).Select(s => Sample(s, 20, Histogram((10_000, 100)), server: Server("iocp", 30, 2, 0, s, 1000 * s, 0)))]);
        var changes = MultiRunComparison.Build([run, fast]).Pairings[0].Matched.Single().Changes;

        Assert.All(warm, r => Assert.True(r.Passed, r.Message));
        Assert.False(Assert.Single(unwarmed).Passed);
        Assert.Equal(0, changes.Single(c => c.Metric == SeriesPairing.P99Ms).PercentChange);
        Assert.Equal(0, changes.Single(c => c.Metric == SeriesPairing.RequestsPerSecond).PercentChange);
        Assert.Equal(0, changes.Single(c => c.Metric == SeriesPairing.ErrorRate).PercentChange);
    }

    [Fact]
    public void Warm_up_seconds_stay_in_the_raw_files_the_csv_and_the_chart_data_where_they_are_shaded()
    {
        var run = WarmRun();
        RawRunWriter.Write(Path.Combine(_directory, "raw"), run);

        var reread = RawRunReader.Read(Path.Combine(_directory, "raw"));
        var files = ReportWriter.WriteAll(RunAnalysis.Of(reread), _directory);
        var csv = File.ReadAllLines(Assert.Single(files.Csv));
        var html = File.ReadAllText(files.Html);

        Assert.Equal(2.5, reread.Manifest.Series[0].WarmUpSeconds);
        Assert.Equal(Enumerable.Range(0, 7), reread.Timelines["grpc-compute-iocp"].Select(s => s.Second));
        Assert.Equal(8, csv.Length);
        var warmUpColumn = Array.IndexOf(csv[0].Split(','), "warm_up");
        Assert.Equal(["1", "1", "1", "0", "0", "0", "0"], csv.Skip(1).Select(line => line.Split(',')[warmUpColumn]));
        Assert.StartsWith("0,40,11,1,11,900,", csv[1], StringComparison.Ordinal);
        Assert.Contains("\"warmUps\":[{\"to\":2.5,", html, StringComparison.Ordinal);
        Assert.Contains("\"users\":[40,40,40,20,20,20,20]", html, StringComparison.Ordinal);
        Assert.Contains("<td>2.50</td><td>4</td>", html, StringComparison.Ordinal);
    }
}
