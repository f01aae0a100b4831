using System.Text.RegularExpressions;
using Harness.LoadTests.Recording;
using static Harness.LoadTests.Reporting.Tests.Runs;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>Time to recover after an outage or fault window (docs/report.md), on hand-made runs.</summary>
public sealed partial class RecoveryTests
{
    private const double Offset = 100;

    // 100 successes a second at 10 ms, except the seconds given; nothing recorded in seconds 20–25 (the target was down).
    private static List<SecondSample> Timeline(int seconds, Func<int, SecondSample?>? special = null)
    {
        var samples = new List<SecondSample>();
        for (var s = 0; s < seconds; s++)
        {
            if (s is >= 20 and <= 25)
            {
                continue;
            }

            if (special?.Invoke(s) is { } sample)
            {
                samples.Add(sample);
                continue;
            }

            samples.Add(Sample(s, 10, Histogram((10_000, 100))));
        }

        return samples;
    }

    private static RunData Outage(IReadOnlyList<SecondSample> samples, params RunEvent[] events) =>
        Run([(Series("grpc", "compute", "iocp", offset: Offset), samples)], events);

    private static RunEvent At(double seriesSeconds, string kind, string? seriesId = "grpc-compute-iocp") =>
        new(Offset + seriesSeconds, kind, seriesId, kind);

    [Fact]
    public void Recovery_is_the_first_stretch_after_the_window_with_the_throughput_and_p99_of_before()
    {
        // Back up at 25.5 s: second 26 completes 30 requests, 27 completes 80, 28 100 at 50 ms; from 29 on, as before.
        // 26–28 average 70 req/s (< 90 % of 100); 27–29 reach 93 req/s but their p99 is 50 ms (> 1.1 × 10 ms);
        // 28–30 still hold second 28's 50 ms; 29–31 are back: recovered at second 29, 3.5 s after the window.
        var samples = Timeline(40, s => s switch
        {
            26 => Sample(s, 10, Histogram((10_000, 30))),
            27 => Sample(s, 10, Histogram((10_000, 80))),
            28 => Sample(s, 10, Histogram((50_000, 100))),
            _ => null,
        });

        var recovery = Assert.Single(SeriesSummary.ForRun(Outage(samples, At(20, "target-down"), At(25.5, "target-up"))).Single().Recoveries);

        Assert.Equal(("target-down", 20.0, 25.5), (recovery.Window.Kind, recovery.Window.From, recovery.Window.To!.Value));
        Assert.Equal(100, recovery.BaselineRequestsPerSecond!.Value, 9);
        Assert.Equal(10, recovery.BaselineP99Ms!.Value, 9);
        Assert.Equal(29, recovery.RecoveredAtSecond);
        Assert.Equal(3.5, recovery.SecondsToRecover!.Value, 9);
        Assert.True(recovery.Recovered);
    }

    [Fact]
    public void Failed_requests_do_not_count_as_being_back()
    {
        // From 26 on the target answers 100 requests a second again, but half of them fail until second 32.
        var samples = Timeline(45, s => s is >= 26 and < 32 ? Sample(s, 10, Histogram((10_000, 50)), failures: 50) : null);

        var recovery = SeriesSummary.ForRun(Outage(samples, At(20, "fault-start", null), At(25, "fault-end", null))).Single().Recoveries.Single();

        Assert.Equal(32, recovery.RecoveredAtSecond);
        Assert.Equal(7, recovery.SecondsToRecover!.Value, 9);
    }

    [Fact]
    public void A_series_that_never_gets_back_a_window_never_closed_and_one_without_a_baseline_have_no_time()
    {
        var halfSpeed = Timeline(40, s => s > 25 ? Sample(s, 10, Histogram((10_000, 50))) : null);
        var notBack = SeriesSummary.ForRun(Outage(halfSpeed, At(20, "target-down"), At(25, "target-up"))).Single().Recoveries.Single();
        var neverClosed = SeriesSummary.ForRun(Outage(Timeline(40), At(20, "target-down"))).Single().Recoveries.Single();
        var noBaseline = SeriesSummary.ForRun(Outage(Timeline(40), At(0, "fault-start"), At(3, "fault-end"))).Single().Recoveries.Single();

        Assert.False(notBack.Recovered);
        Assert.Null(notBack.RecoveredAtSecond);
        Assert.Equal(100, notBack.BaselineRequestsPerSecond!.Value, 9);
        Assert.Contains("not back", notBack.Outcome, StringComparison.Ordinal);
        Assert.Equal("the window never closed", neverClosed.Outcome);
        Assert.Null(neverClosed.SecondsToRecover);
        Assert.Null(noBaseline.BaselineRequestsPerSecond);
        Assert.Contains("no successful requests recorded before", noBaseline.Outcome, StringComparison.Ordinal);
    }

    [Fact]
    public void Events_of_other_series_open_no_window_and_the_search_stops_at_the_next_window()
    {
        // A second window opens at 27: the first one cannot be back before it (27 − 3 < 26 + 3).
        var samples = Timeline(45, s => s is 26 ? Sample(s, 10, Histogram((10_000, 20))) : null);
        var run = Outage(samples, At(20, "target-down"), At(25, "target-up"), At(27, "fault-start"), At(28, "fault-end"), At(22, "target-down", "other"));
        run = run with { Manifest = run.Manifest with { Series = [.. run.Manifest.Series, Series("soap", "compute", "iocp", id: "other")] } };

        var recoveries = SeriesSummary.ForRun(run)[0].Recoveries;

        Assert.Equal(2, recoveries.Count);
        Assert.False(recoveries[0].Recovered);
        Assert.Equal(28, recoveries[1].RecoveredAtSecond);
    }

    [Fact]
    public void The_reports_show_the_time_to_recover_and_mark_it_on_the_charts()
    {
        var samples = Timeline(40);
        var run = Outage(samples, At(20, "target-down"), At(25.5, "target-up"));

        var html = HtmlReport.Render(RunAnalysis.Of(run));
        var markdown = MarkdownReport.Render(RunAnalysis.Of(run));

        Assert.Contains("<h3>Time to recover</h3>", html, StringComparison.Ordinal);
        Assert.Matches(RecoveryMark(), html);
        Assert.Contains("| iocp | target-down | 20 | 25.5 | 100 | 10.0 | 26 | 0.5 | recovered |", markdown, StringComparison.Ordinal);
    }

    [GeneratedRegex("\"recoveries\":\\[\\{\"label\":\"iocp\",\"color\":\"#[0-9a-f]{6}\",\"windowEnd\":25.5,\"at\":26,\"seconds\":0.5\\}\\]")]
    private static partial Regex RecoveryMark();
}
