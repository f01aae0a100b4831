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
        Assert.Equal(mean.Ratio.Low > 1.05 ? RatioVerdict.Worse : RatioVerdict.Inconclusive, mean.Ratio.Verdict);
    }

    [Fact]
    public void The_console_says_worse_with_its_interval_and_marks_the_repetitions()
    {
        var comparison = MultiRunComparison.Build([CompareReportTests.RunOf("A", 100, 102, 104), CompareReportTests.RunOf("B", 120, 122, 124)]);

        var lines = ComparisonText.ToText(comparison.Pairings[0]).Split(Environment.NewLine);

        Assert.Contains("By mode, B against A (repetitions together; change of the medians, 95 % interval from both runs' repetition noise):", lines);
        Assert.Contains(lines, l => l.StartsWith("grpc-compute-iocp-1 ", StringComparison.Ordinal) && l.Contains("+20.0 % !", StringComparison.Ordinal));
        Assert.Contains("grpc-compute-iocp  mean        +19.6 %  +14.8 % to +24.6 %  worse !", lines);
        Assert.Contains("                   error rate    0.0 %  —                   within noise", lines);
        Assert.Contains(lines, l => l.StartsWith("'!' marks a figure whose mode (its repetitions together) is worse than in A beyond the noise", StringComparison.Ordinal));
        Assert.Contains("<td class=\"worse\">+19.6 % (+14.8 % to +24.6 %)</td>", ComparisonHtml.Render(comparison), StringComparison.Ordinal);
    }

    [Fact]
    public void The_console_and_the_markdown_say_within_noise_and_mark_nothing()
    {
        var comparison = MultiRunComparison.Build([CompareReportTests.RunOf("A", 100, 102, 104), CompareReportTests.RunOf("B", 95, 110, 125)]);

        var text = ComparisonText.ToText(comparison.Pairings[0]);
        var markdown = ComparisonMarkdown.Render(comparison);

        Assert.Contains("grpc-compute-iocp  mean        +7.8 %  -14.2 % to +33.9 %  within noise", text, StringComparison.Ordinal);
        Assert.DoesNotContain(" !", text, StringComparison.Ordinal);
        Assert.Contains("| mean ms | 102 (100–104) | 110 (95.0–125) | +7.8 % (-14.2 % to +33.9 %) within noise |", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void The_console_and_the_markdown_say_single_run_and_mark_nothing()
    {
        var comparison = MultiRunComparison.Build([CompareReportTests.RunOf("A", 100), CompareReportTests.RunOf("B", 150)]);

        var text = ComparisonText.ToText(comparison.Pairings[0]);
        var markdown = ComparisonMarkdown.Render(comparison, gatePercent: 5);

        Assert.Contains("grpc-compute-iocp  mean        +50.0 %  —              single run", text, StringComparison.Ordinal);
        Assert.DoesNotContain(" !", text, StringComparison.Ordinal);
        Assert.Contains("| mean ms | 100 | 150 | +50.0 % single run |", markdown, StringComparison.Ordinal);
        Assert.Contains("**not judged**: every mean and p99 the gate would judge (2) is of a single run", markdown, StringComparison.Ordinal);
        Assert.Contains("<td>+50.0 % single run</td>", ComparisonHtml.Render(comparison), StringComparison.Ordinal);
    }
}
