using Harness.LoadTests.Recording;
using static Harness.LoadTests.Reporting.Tests.Runs;

namespace Harness.LoadTests.Reporting.Tests;

public sealed class KneeTests
{
    /// <summary>
    /// A closed ramp of 4, 8 … 40 users, 10 s each, against an ideal of 100 ms. Each user's call takes 100 ms below
    /// <paramref name="kneeAt"/> users, and 100 ms × users ÷ (kneeAt − 8) from there on (the service is saturated: its
    /// throughput stops rising); with no knee, 100 ms throughout. <paramref name="blipAt"/>: one level at 200 ms.
    /// </summary>
    internal static (SeriesInfo, IReadOnlyList<SecondSample>) Ramp(string mode, int? kneeAt, int? blipAt = null, double warmUp = 0)
    {
        var info = Series("grpc", "call-third-party", mode, idealLatencyMs: 100) with { WarmUpSeconds = warmUp };
        var samples = new List<SecondSample>();
        for (var s = 0; s < 100; s++)
        {
            var users = 4 * (1 + (s / 10));
            var ms = kneeAt is { } k && users >= k ? 100.0 * users / (k - 8) : users == blipAt ? 200 : 100;
            samples.Add(Sample(s, users, Histogram(((long)(ms * 1000), (long)Math.Round(users * 1000 / ms)))));
        }

        return (info, samples);
    }

    [Fact]
    public void The_knee_is_the_first_of_three_levels_in_a_row_above_the_ideal_by_more_than_20_percent()
    {
        var (info, samples) = Ramp("iocp", kneeAt: 32);

        var knee = Knee.Find(info, samples);

        Assert.True(knee.IsRamp);
        Assert.Equal(Enumerable.Range(1, 10).Select(i => 4 * i), knee.Levels.Select(l => l.Load));
        Assert.Equal((32, 70, 10), (knee.At!.Load, knee.At.FromSecond, knee.At.Seconds));
        Assert.Equal(133.333, knee.At.MeanMs!.Value, 3);
        Assert.Equal(KneeReason.Latency, knee.Reason);
        Assert.Equal(100, knee.IdealMs);
        Assert.Equal(40, knee.PeakLoad);
    }

    [Fact]
    public void A_ramp_whose_first_level_completes_nothing_is_past_its_knee_from_that_level()
    {
        // Arrange: calls of 14 s on a ramp of 10 s levels (S2's ThreadPool): the first level ends before any answer.
        var info = Series("soap", "call-third-party", "threadpool", idealLatencyMs: 4000);
        var samples = new List<SecondSample>();
        for (var s = 0; s < 50; s++)
        {
            var users = 4 * (1 + (s / 10));
            samples.Add(s < 10 ? Sample(s, users, Histogram()) : Sample(s, users, Histogram((14_000_000, 1))));
        }

        // Act
        var knee = Knee.Find(info, samples);
        var unjudged = Knee.Find(info with { IdealLatencyMs = null }, samples);

        // Assert
        Assert.Null(knee.Levels[0].MeanMs);
        Assert.Equal(4, knee.At!.Load);
        Assert.Equal(KneeReason.Latency, knee.Reason);
        Assert.False(unjudged.IsRamp);
        Assert.Equal("knee at 4 users: no request succeeded at that load, against the ideal 4,000 ms", Threshold.DescribeKnee(knee, openModel: false));
    }

    [Fact]
    public void The_warm_up_s_last_level_before_the_ramp_restarts_lower_is_not_the_ramp()
    {
        // Arrange: a measured span that opens with one second at 12 users (the warm-up's end), then the ramp from 4.
        var (info, samples) = Ramp("iocp", kneeAt: 32);
        var opened = samples.Select(s => s with { Second = s.Second + 1 }).Prepend(Sample(0, 12, Histogram((100_000, 120)))).ToList();

        // Act
        var knee = Knee.Find(info, opened);

        // Assert
        Assert.True(knee.IsRamp);
        Assert.Equal(4, knee.Levels[0].Load);
        Assert.Equal(32, knee.At!.Load);
    }

    [Fact]
    public void A_ramp_that_stays_ideal_or_leaves_it_for_one_level_only_has_no_knee()
    {
        var (steady, steadySamples) = Ramp("custompool", kneeAt: null);
        var (blip, blipSamples) = Ramp("custompool", kneeAt: null, blipAt: 20);

        Assert.Null(Knee.Find(steady, steadySamples).At);
        Assert.Null(Knee.Find(blip, blipSamples).At);
        Assert.True(Knee.Find(blip, blipSamples).IsRamp);
    }

    [Fact]
    public void A_knee_in_the_last_two_levels_counts_and_the_warm_up_is_left_out()
    {
        var (info, samples) = Ramp("iocp", kneeAt: 36, warmUp: 10);

        var knee = Knee.Find(info, samples);

        Assert.Equal(8, knee.Levels[0].Load);
        Assert.Equal(36, knee.At!.Load);
    }

    [Fact]
    public void Throughput_that_stops_rising_with_the_arrival_rate_is_a_knee_even_at_ideal_latency()
    {
        // Open model: 10, 20 … 100 requests/s for 5 s each, every request 100 ms, but at most 50 complete a second.
        // At 60/s, 50 is above 80 % of 60; at 70/s, 50 is below 80 % of 70 (56).
        var info = Series("grpc", "compute", "iocp", model: "open");
        var samples = Enumerable.Range(0, 50)
            .Select(s => (Second: s, Rate: 10 * (1 + (s / 5))))
            .Select(p => Sample(p.Second, p.Rate, Histogram((100_000, Math.Min(p.Rate, 50)))))
            .ToList();

        var knee = Knee.Find(info, samples);

        Assert.Equal(70, knee.At!.Load);
        Assert.Equal(KneeReason.Throughput, knee.Reason);
        Assert.False(knee.IdealIsMeasured);
    }

    [Fact]
    public void A_constant_load_is_not_a_ramp()
    {
        var info = Series("grpc", "compute", "iocp");
        var samples = Enumerable.Range(0, 30).Select(s => Sample(s, 16, Histogram((100_000, 160)))).ToList();

        var knee = Knee.Find(info, samples);

        Assert.False(knee.IsRamp);
        Assert.Null(knee.At);
    }

    [Fact]
    public void Knee_thresholds_pass_beyond_the_peak_and_fail_below_their_limit_or_without_a_ramp()
    {
        var constant = Series("soap", "compute", "iocp");
        var run = Run([
            Ramp("threadpool", kneeAt: 12), Ramp("iocp", kneeAt: 32), Ramp("custompool", kneeAt: null),
            (constant, [.. Enumerable.Range(0, 30).Select(s => Sample(s, 16, Histogram((100_000, 160))))]),
        ]);

        var atLeast = ThresholdEvaluator.Evaluate(run, [Threshold.Parse("knee>=32")]);
        var below = ThresholdEvaluator.Evaluate(run, [Threshold.Parse("stack=grpc:knee<20")]);

        Assert.Equal([false, true, true, false], atLeast.Select(r => r.Passed));
        Assert.Equal([12.0, 32.0, null, null], atLeast.Select(r => r.Actual));
        Assert.Equal("no knee up to 40 users (the peak) (limit >= 32)", atLeast[2].Message);
        Assert.StartsWith("no knee: the load did not rise", atLeast[3].Message, StringComparison.Ordinal);
        Assert.Equal([true, false, false], below.Select(r => r.Passed));
        Assert.Throws<FormatException>(() => Threshold.Parse("knee>=32users"));
    }

    [Fact]
    public void The_summary_lists_each_ramp_s_knee_and_the_charts_mark_it()
    {
        var run = Run([Ramp("threadpool", kneeAt: 12), Ramp("iocp", kneeAt: 32), Ramp("custompool", kneeAt: null)]);

        var markdown = MarkdownReport.Render(RunAnalysis.Of(run));
        var html = HtmlReport.Render(RunAnalysis.Of(run));

        Assert.Contains("- threadpool: knee at 12 users: mean 300 ms, over the ideal 100 ms + 20 %", markdown, StringComparison.Ordinal);
        Assert.Contains("- iocp: knee at 32 users: mean 133 ms, over the ideal 100 ms + 20 %", markdown, StringComparison.Ordinal);
        Assert.Contains("- custompool: no knee up to 40 users (the peak)", markdown, StringComparison.Ordinal);
        Assert.Contains("\"knee\":{\"load\":32,\"second\":70,\"reason\":\"latency\"}", html, StringComparison.Ordinal);
        Assert.Contains("<b>Knee</b>", html, StringComparison.Ordinal);
    }
}
