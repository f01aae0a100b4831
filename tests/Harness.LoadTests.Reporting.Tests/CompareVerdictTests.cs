using Harness.LoadTests.Recording;
using Xunit.Abstractions;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>
/// <c>harness compare</c>'s verdict on a mode of run B against run A: the pooled log-t interval of both runs'
/// repetition noise (<see cref="ModeRatio.AcrossRuns"/>), checked on simulated runs whose truth is known, then as the
/// console and comparison.md say it.
/// </summary>
public sealed class CompareVerdictTests(ITestOutputHelper output)
{
    private const int SimulatedPairs = 3000;

    // The claimed 5 %, with a margin for a rate measured over SimulatedPairs pairs.
    private const double ClaimedWithMargin = 0.07;

    [Theory]
    [InlineData(1)]
    [InlineData(3)]
    public void Over_simulated_AA_pairs_of_runs_the_interval_flags_a_difference_no_more_often_than_it_claims_and_the_extremes_did(int modesPerRun)
    {
        // Arrange: pairs of runs of one build, each mode twice, 10 % log-normal process noise.
        var runs = new SimulatedRuns(Seed: 23, Sd: 0.10);
        var interval = 0;
        var extremes = 0;

        // Act
        for (var pair = 0; pair < SimulatedPairs; pair++)
        {
            var a = runs.Run(modesPerRun, repetitions: 2, trueRatio: 1.0);
            var b = runs.Run(modesPerRun, repetitions: 2, trueRatio: 1.0);
            var judged = ModeRatio.AcrossRuns(b[0], a[0], RepetitionNoise.Across(a, b), lowerIsBetter: true);
            var old = ModeRatio.Between(Spread.Of(b[0]), Spread.Of(a[0]), lowerIsBetter: true);
            interval += Flagged(judged) ? 1 : 0;
            extremes += Flagged(old) ? 1 : 0;
        }

        // Assert
        var (newRate, oldRate) = (interval / (double)SimulatedPairs, extremes / (double)SimulatedPairs);
        output.WriteLine("A/A pairs flagged ({0} mode(s) per run pooled): interval {1:P2}, extremes {2:P2}", modesPerRun, newRate, oldRate);
        Assert.InRange(newRate, 0, ClaimedWithMargin);
        Assert.True(oldRate > 0.2, $"the extremes rule, whose ranges of two do not overlap in a third of A/A pairs, flagged only {oldRate:P1}");
    }

    [Fact]
    public void A_true_forty_percent_difference_with_three_repetitions_each_is_flagged_worse_in_most_pairs()
    {
        var runs = new SimulatedRuns(Seed: 29, Sd: 0.10);
        var worse = 0;
        const int pairs = 1000;

        for (var pair = 0; pair < pairs; pair++)
        {
            var a = runs.Run(1, repetitions: 3, trueRatio: 1.0);
            var b = runs.Run(1, repetitions: 3, trueRatio: 1.4);
            worse += ModeRatio.AcrossRuns(b[0], a[0], RepetitionNoise.Across(a, b), lowerIsBetter: true).Verdict == RatioVerdict.Worse ? 1 : 0;
        }

        output.WriteLine("40 % slower, 3 repetitions each: flagged worse in {0:P1}", worse / (double)pairs);
        Assert.True(worse > 0.8 * pairs, $"flagged worse in only {worse} of {pairs} pairs");
    }

    [Fact]
    public void The_interval_pools_the_noise_of_both_runs_and_of_every_mode_of_the_operation()
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
        var expected = RepetitionNoise.Across([aIocp, aPool], [bIocp, bPool])!;
        Assert.Equal(8, expected.DegreesOfFreedom);
        Assert.Equal(expected.Ratio(bIocp, aIocp, ModeRatio.Confidence)!.Low, mean.Ratio.Low!.Value, 9);
        Assert.Equal(RatioVerdict.WithinNoise, mean.Ratio.Verdict);
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

    private static bool Flagged(ModeRatio ratio) => ratio.Verdict is RatioVerdict.Better or RatioVerdict.Worse;

    /// <summary>Runs of several modes, each process's figure its mode's true value times log-normal noise.</summary>
    private sealed record SimulatedRuns(int Seed, double Sd)
    {
        private readonly Random _random = new(Seed);

        /// <summary>Per mode, its repetitions' figures; mode 0 is the one compared, at <paramref name="trueRatio"/>.</summary>
        public List<IReadOnlyList<double>> Run(int modes, int repetitions, double trueRatio) =>
        [
            .. Enumerable.Range(0, modes).Select(m => (IReadOnlyList<double>)[.. Enumerable.Range(0, repetitions)
                .Select(_ => 100 * (m + 1) * (m == 0 ? trueRatio : 1) * Math.Exp(Sd * Gaussian()))]),
        ];

        private double Gaussian() =>
            Math.Sqrt(-2 * Math.Log(1 - _random.NextDouble())) * Math.Cos(2 * Math.PI * _random.NextDouble());
    }
}
