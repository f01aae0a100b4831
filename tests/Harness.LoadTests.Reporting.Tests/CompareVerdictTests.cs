using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>
/// <c>harness compare</c>'s verdict on a mode of run B against run A: the log-t interval of the two runs' repetitions
/// of that series, judged with the comparison's family, as the console and comparison.md say it. The simulations of
/// the rule are in <see cref="FamilyVerdictTests"/>.
/// </summary>
public sealed class CompareVerdictTests
{
    [Fact]
    public void The_interval_uses_the_noise_of_the_two_runs_of_the_series_alone()
    {
        // Arrange: iocp and threadpool of grpc · compute, three times each, in both runs.
        static RunData RunOf(string id, double[] iocp, double[] threadpool) => Runs.Run(
        [
            .. CompareReportTests.RunOf(id, iocp).Manifest.Series.Select(s => (s, (IReadOnlyList<SecondSample>)CompareReportTests.RunOf(id, iocp).Timelines[s.Id])),
            .. CompareReportTests.RunOf(id, threadpool).Manifest.Series.Select(s =>
            {
                var info = s with { Id = s.Id.Replace("iocp", "threadpool", StringComparison.Ordinal), Mode = "threadpool" };
                return (info, (IReadOnlyList<SecondSample>)CompareReportTests.RunOf(id, threadpool).Timelines[s.Id]);
            }),
        ], runId: id);
        double[] aIocp = [100, 102, 104], aPool = [200, 230, 260], bIocp = [110, 111, 113], bPool = [190, 220, 250];

        // Act
        var comparison = MultiRunComparison.Build([RunOf("a", aIocp, aPool), RunOf("b", bIocp, bPool)]);

        // Assert
        var mean = comparison.Series.Single(s => s.Key == "grpc-compute-iocp").Against[1]!.Single(f => f.Figure == ModeFigure.Mean);
        // threadpool's far noisier repetitions neither widen nor narrow iocp's interval: 3 + 3 values, 4 degrees of freedom.
        var expected = RatioTest.Of([.. bIocp.Select(v => new Observation(0, v))], [.. aIocp.Select(v => new Observation(0, v))]).Test!;
        Assert.Equal((4, RatioMethod.PooledTwoArms), (mean.Ratio.Test!.DegreesOfFreedom, mean.Ratio.Test.Method));
        Assert.Equal(expected.Interval(mean.Ratio.Level!.Value).Low, mean.Ratio.Low!.Value, 9);
        // The family: mean and p99 of both modes (req/s, 50 a second in every series, has no interval), 4 members.
        // iocp's mean: ratio of the geometric means 1.0916, se 0.013809, p of lying beyond ±5 % 0.048 > 0.05/4, so
        // Holm stops at its first step and every member is judged at 1 − 0.05/4: t(4 df) = 4.3147, 1.0284 to 1.1586.
        // At 95 % alone (1.0505 to 1.1342) it would have been called worse; as one of 4 it cannot be.
        Assert.Equal(1 - (0.05 / 4), mean.Ratio.Level!.Value, 9);
        Assert.Equal((1.0916, 1.0284, 1.1586), (Math.Round(mean.Ratio.Median!.Value, 4), Math.Round(mean.Ratio.Low!.Value, 4), Math.Round(mean.Ratio.High!.Value, 4)));
        Assert.Equal(RatioVerdict.Inconclusive, mean.Ratio.Verdict);
    }

    [Fact]
    public void The_console_says_worse_with_its_interval_and_marks_the_repetitions()
    {
        var comparison = MultiRunComparison.Build([CompareReportTests.RunOf("A", 100, 102, 104), CompareReportTests.RunOf("B", 120, 122, 124)]);

        var lines = ComparisonText.ToText(comparison.Pairings[0]).Split(Environment.NewLine);

        // The ratio of the geometric means, 121.99 ÷ 101.99 = 1.19612; log-t on 4 degrees of freedom, se 0.014758. The family
        // is mean and p99 (req/s, 50 a second everywhere, has no interval); their tests are equal, so Holm takes the
        // mean first, at 1 − 0.05/2 (t 3.4954: +13.6 % to +25.9 %), then the p99 at 95 % (t 2.7764: +14.8 % to +24.6 %).
        Assert.Contains("By mode, B against A (repetitions together; change of the geometric means; interval from both runs' repetitions, at its Holm level for mean, p99 and req/s, else 95 %):", lines);
        Assert.Contains(lines, l => l.StartsWith("grpc-compute-iocp-1 ", StringComparison.Ordinal) && l.Contains("+20.0 % !", StringComparison.Ordinal));
        Assert.Contains("grpc-compute-iocp  mean        +19.6 %  +13.6 % to +25.9 %  worse !", lines);
        Assert.Contains("                   p99         +19.6 %  +14.8 % to +24.6 %  worse !", lines);
        Assert.Contains("                   req/s         0.0 %  —                   no interval", lines);
        Assert.Contains("                   error rate    0.0 %  —                   no interval", lines);
        Assert.Contains(lines, l => l.StartsWith("'!' marks a figure whose mode (its repetitions together) is worse than in A: mean, p99 and req/s of every series are judged as one family", StringComparison.Ordinal));
        Assert.DoesNotContain(lines, l => l.Contains("within noise", StringComparison.Ordinal));
        Assert.Contains("<td class=\"worse\">+19.6 % (+13.6 % to +25.9 %) worse</td><td class=\"worse\">+19.6 % (+14.8 % to +24.6 %) worse</td><td>+19.6 % (+14.8 % to +24.6 %)</td>", ComparisonHtml.Render(comparison), StringComparison.Ordinal);
    }

    [Fact]
    public void The_console_and_the_markdown_say_inconclusive_with_its_bounds_and_mark_nothing()
    {
        var comparison = MultiRunComparison.Build([CompareReportTests.RunOf("A", 100, 102, 104), CompareReportTests.RunOf("B", 95, 110, 125)]);

        var text = ComparisonText.ToText(comparison.Pairings[0]);
        var markdown = ComparisonMarkdown.Render(comparison);

        // Geometric means 109.31 ÷ 101.99 = 1.0718, se 0.080089 on 4 degrees of freedom; mean and p99 are the family
        // (2), both judged at 1 − 0.05/2 as Holm stops at once (t 3.4954): 0.8101 to 1.4181, both sides of ±5 %.
        // p50 is not judged, so it keeps its 95 % interval (t 2.7764): 0.8581 to 1.3388.
        Assert.Contains("grpc-compute-iocp  mean        +7.2 %  -19.0 % to +41.8 %  inconclusive", text, StringComparison.Ordinal);
        Assert.DoesNotContain(" !", text, StringComparison.Ordinal);
        Assert.DoesNotContain("within noise", text + markdown, StringComparison.Ordinal);
        Assert.Contains("| mean ms | 102 (100–104) | 110 (95.0–125) | +7.2 % (-19.0 % to +41.8 %) inconclusive |", markdown, StringComparison.Ordinal);
        Assert.Contains("| p50 ms | 102 (100–104) | 110 (95.0–125) | +7.2 % (-14.2 % to +33.9 %) |", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void The_console_and_the_markdown_say_single_run_and_mark_nothing()
    {
        var comparison = MultiRunComparison.Build([CompareReportTests.RunOf("A", 100), CompareReportTests.RunOf("B", 150)]);

        var text = ComparisonText.ToText(comparison.Pairings[0]);
        var markdown = ComparisonMarkdown.Render(comparison, gatePercent: 5);

        Assert.Contains("grpc-compute-iocp  mean        +50.0 %  —         single run", text, StringComparison.Ordinal);
        Assert.DoesNotContain(" !", text, StringComparison.Ordinal);
        Assert.Contains("| mean ms | 100 | 150 | +50.0 % single run |", markdown, StringComparison.Ordinal);
        Assert.Contains("**not judged**: no mean or p99 the gate would judge (2) has an interval (each side a single run, or a figure of 0)", markdown, StringComparison.Ordinal);
        Assert.Contains("<td>+50.0 % single run</td>", ComparisonHtml.Render(comparison), StringComparison.Ordinal);
    }
}
