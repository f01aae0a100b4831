using Harness.LoadTests.Recording;
using static Harness.LoadTests.Reporting.Tests.Runs;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>The server's own execution time beside the client's latency (the rest is queue and transport), and how the ideal was measured.</summary>
public sealed class ServerTimeTests
{
    // Each second: 100 successes at 50 ms, of which 80 report 20 ms of execution (30 ms of queueing and transport);
    // 10 failures. Second 0 is warm-up, with a 900 ms execution that must not count.
    private static RunData Timed()
    {
        SecondSample Second(int s, long executionUs) => Sample(
            s, 10, Histogram((50_000, 100)), failures: 10,
            serverTime: Histogram((executionUs, 80)), queueTime: Histogram((50_000 - Math.Min(executionUs, 50_000), 80)));
        var info = Series("grpc", "compute", "iocp", idealLatencyMs: 18) with { WarmUpSeconds = 1, IdealMethod = "one call alone before the series" };
        return Run([(info, [Second(0, 900_000), Second(1, 20_000), Second(2, 20_000)])]);
    }

    [Fact]
    public void The_summary_gives_server_and_queue_time_of_the_successful_requests_that_reported_it()
    {
        var summary = SeriesSummary.ForRun(Timed()).Single();
        var untimed = SeriesSummary.From(Series("grpc", "compute", "iocp"), [Sample(0, 1, Histogram((1_000, 5)))]);

        Assert.Equal((160L, 20.0, 20.0, 20.0), (summary.ServerTime!.Count, summary.ServerTime.MeanMs, summary.ServerTime.P50Ms, summary.ServerTime.P99Ms));
        Assert.Equal((160L, 30.0, 30.0), (summary.QueueTime!.Count, summary.QueueTime.MeanMs, summary.QueueTime.P99Ms));
        Assert.Equal(50, summary.Latency.MeanMs, 6);
        Assert.Null(untimed.ServerTime);
        Assert.Null(untimed.QueueTime);
    }

    [Fact]
    public void The_tables_csv_and_chart_data_show_server_and_queue_time_and_the_ideal_shows_how_it_was_measured()
    {
        var run = Timed();

        var html = HtmlReport.Render(RunAnalysis.Of(run));
        var markdown = MarkdownReport.Render(RunAnalysis.Of(run));
        var csv = CsvReport.Render(run.Timelines["grpc-compute-iocp"], 1).TrimEnd('\n').Split('\n');

        Assert.Contains("<h3>Server execution and queue time</h3>", html, StringComparison.Ordinal);
        Assert.Contains("| iocp | 50.0 | 20.0 | 20.0 | 20.0 | 30.0 | 30.0 | 30.0 | 160 |", markdown, StringComparison.Ordinal);
        Assert.Contains("\"serverMean\":[900,20,20]", html, StringComparison.Ordinal);
        Assert.Contains("\"queueMean\":[0,30,30]", html, StringComparison.Ordinal);
        Assert.Contains("\"idealMethod\":\"one call alone before the series\"", html, StringComparison.Ordinal);
        Assert.Contains("<td class=\"wrap\">one call alone before the series</td>", html, StringComparison.Ordinal);
        var header = csv[0].Split(',');
        Assert.Equal("20", csv[2].Split(',')[Array.IndexOf(header, "server_mean_ms")]);
        Assert.Equal("30", csv[2].Split(',')[Array.IndexOf(header, "queue_p99_ms")]);
    }
}
