using Harness.LoadTests.Recording;
using static Harness.LoadTests.Reporting.Tests.Runs;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>Levels short against one call: what they can and cannot show about the knee (docs/report.md, "Knee").</summary>
public sealed class KneeShortLevelTests
{
    /// <summary>
    /// S1: users added evenly from 0 to 100,000 over 60 s (<c>rampingConstant</c>, so every second is a level of its
    /// own), then held for <paramref name="holdSeconds"/>; every call waits 60 s, so the first answers come at 60 s, on
    /// the ideal. Warm-up: the first 10 s.
    /// </summary>
    private static (SeriesInfo, IReadOnlyList<SecondSample>) S1(int holdSeconds)
    {
        var info = Series("soap", "call-third-party", "custompool", idealLatencyMs: 60_000) with { WarmUpSeconds = 10 };
        var samples = Enumerable.Range(0, 60 + holdSeconds)
            .Select(s => s < 60
                ? Sample(s, (int)Math.Round(100_000.0 * s / 60) + 7, Histogram())
                : Sample(s, 100_000, Histogram((60_500_000, 1_667))))
            .ToList();
        return (info, samples);
    }

    /// <summary>Users 4, 8 … on levels of 5.6 s (recorded as 6 and 5 whole seconds), as S2 shortened 8×.</summary>
    private static int S2Users(int second) => 4 * (1 + (int)(second / 5.6));

    [Fact]
    public void A_linear_ramp_whose_calls_outlast_it_has_no_knee_where_nothing_could_have_completed()
    {
        // Arrange: S1 held for 60 s: the one-second levels of the ramp complete nothing, the hold completes on the ideal.
        var (info, samples) = S1(holdSeconds: 60);

        // Act
        var knee = Knee.Find(info, samples);

        // Assert
        Assert.True(knee.IsRamp);
        Assert.Equal(16_674, knee.Levels[0].Load);
        Assert.Equal((1, 51), (knee.Levels[0].Seconds, knee.Levels.Count));
        Assert.Null(knee.At);
        Assert.Equal(50, knee.Unjudged);
        Assert.False(knee.NoneJudged);
        Assert.Equal(
            "no knee up to 100000 users (the peak); 50 of 51 levels not judged: nothing completed within them, each shorter than the ideal call + 20 %",
            Threshold.DescribeKnee(knee, openModel: false));
    }

    [Fact]
    public void A_ramp_none_of_whose_levels_can_be_judged_says_why_and_fails_a_knee_threshold_as_unmeasured()
    {
        // Arrange: S1 cut at the end of its ramp, before any call could answer.
        var (info, samples) = S1(holdSeconds: 0);
        var run = Run([(info, samples)]);

        // Act
        var knee = Knee.Find(info, samples);
        var verdict = ThresholdEvaluator.Evaluate(run, [Threshold.Parse("knee>=1000")]).Single();

        // Assert
        Assert.True(knee.NoneJudged);
        Assert.Null(knee.At);
        Assert.Equal("no knee judged: nothing completed within levels of 1 s, shorter than the ideal call of 60,000 ms + 20 %", Threshold.DescribeKnee(knee, openModel: false));
        Assert.False(verdict.Passed);
        Assert.Null(verdict.Actual);
    }

    [Fact]
    public void Levels_holding_one_or_two_calls_are_not_judged_on_throughput()
    {
        // Arrange: S2 shortened 8x (custompool): every call on the 4 s ideal, each user completing one call per level.
        // The measured span opens with the warm-up's last second (8 users), and the first level also completes the
        // warm-up's 8 calls, so counted per second its throughput is 3x what one round of its 4 users gives.
        var info = Series("soap", "call-third-party", "custompool", idealLatencyMs: 4000);
        var samples = new List<SecondSample> { Sample(0, 8, Histogram()) };
        for (var s = 0; s < 56; s++)
        {
            var users = S2Users(s);
            var firstOfLevel = s == 0 || S2Users(s - 1) != users;
            samples.Add(Sample(s + 1, users, firstOfLevel ? Histogram((4_000_000, users + (users == 4 ? 8 : 0))) : Histogram()));
        }

        // Act
        var knee = Knee.Find(info, samples);

        // Assert: without the rule, 8 users would be a knee by throughput (8 completions in 6 s against 2 x 12 in 6 s).
        Assert.Equal(4, knee.Levels[0].Load);
        Assert.Equal(6, knee.Levels[0].Seconds);
        Assert.Null(knee.At);
        Assert.Equal(knee.Levels.Count, knee.LatencyOnly);
        Assert.Equal(
            $"no knee up to 40 users (the peak); {knee.Levels.Count} of {knee.Levels.Count} levels judged on latency only: shorter than 5 ideal calls",
            Threshold.DescribeKnee(knee, openModel: false));
    }

    [Fact]
    public void Levels_longer_than_an_ideal_call_that_complete_nothing_are_past_the_knee()
    {
        // Arrange: S2 shortened 8x, threadpool: calls of 14 s on levels of 5.6 s against the 4 s ideal. Its first two
        // levels complete nothing though a call on the ideal line would have completed within each (6 s > 4.8 s); the
        // 14 s answers start at second 14. A rule judging "nothing completed" only on levels of two ideal calls (8 s)
        // would put this knee at 12 users, where the first slow answer landed, not where the calls were made.
        var info = Series("soap", "call-third-party", "threadpool", idealLatencyMs: 4000);
        var samples = Enumerable.Range(0, 50)
            .Select(s => Sample(s, S2Users(s), s < 14 ? Histogram() : Histogram((14_000_000, 1))))
            .ToList();

        // Act
        var knee = Knee.Find(info, samples);

        // Assert
        Assert.Equal((4, 6), (knee.Levels[0].Load, knee.Levels[0].Seconds));
        Assert.Equal(4, knee.At!.Load);
        Assert.Equal(KneeReason.Latency, knee.Reason);
        Assert.Equal(0, knee.Unjudged);
        Assert.Equal("knee at 4 users: no request succeeded at that load, against the ideal 4,000 ms", Threshold.DescribeKnee(knee, openModel: false));
    }
}
