using Harness.LoadTests.Recording;
using static Harness.LoadTests.Reporting.Tests.Runs;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>A run repeated until settled (<c>--repeat auto</c>): its looks replayed from the raw files, and what the report says of them.</summary>
public sealed class RepetitionSettlementTests
{
    // Each series: two seconds of a closed model's 100 users at the given latency, so 100 ÷ latency requests a second
    // (1,000 at 100 ms, 995 at 100.5 ms): req/s moves with the latency as in a real run. Identical req/s in every
    // series would give that comparison no interval (a noise of exactly 0), so it could never settle.
    private static IReadOnlyList<SecondSample> Steady(long microseconds)
    {
        var perSecond = (long)Math.Round(100 * 1_000_000.0 / microseconds);
        return [Sample(0, 100, Histogram((microseconds, perSecond))), Sample(1, 100, Histogram((microseconds, perSecond)))];
    }

    // An A/A run: one mode listed twice, its two listings in the run's order over the rounds given (A B | B A | B A | A B).
    private static RunData AaRun(int maxRounds, params (int Round, int Slot, long Microseconds)[] series)
    {
        var run = Run(series.Select((s, i) => (
            Series("grpc", "compute", "threadpool", id: $"grpc-compute-threadpool-{i + 1}") with { Repetition = i + 1, Round = s.Round, Slot = s.Slot },
            Steady(s.Microseconds))));
        return run with { Manifest = run.Manifest with { RepeatUntilSettled = maxRounds } };
    }

    [Fact]
    public void An_AA_run_whose_listings_agree_settles_as_no_difference_larger_than_five_percent()
    {
        // Paired by round, two rounds leave one degree of freedom (too wide at the family's level); four settle it.
        var run = AaRun(8, (1, 1, 100_000), (1, 2, 100_500), (2, 2, 100_200), (2, 1, 99_800), (3, 2, 100_400), (3, 1, 100_100), (4, 1, 99_600), (4, 2, 99_900));

        var analysis = RunAnalysis.Of(run);
        var markdown = MarkdownReport.Render(analysis);

        var settlement = analysis.Settlement!;
        Assert.Equal(4, settlement.Rounds);
        Assert.Equal(3, settlement.Comparisons.Count);
        Assert.All(settlement.Comparisons, c => Assert.Equal(Settlement.NoLargerThanTolerance, c.Result!.Settlement));
        Assert.Contains("Repeated until settled: 4 of at most 8 rounds; no difference larger than 5 % in any of the 3 comparisons", markdown, StringComparison.Ordinal);
        Assert.Contains("- grpc · compute threadpool (2nd) ÷ threadpool (1st) mean: ", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void Listings_that_differ_beyond_their_noise_settle_as_differs_and_a_noisy_pair_stays_unsettled_and_is_named()
    {
        var differs = AaRun(4, (1, 1, 100_000), (1, 2, 200_000), (2, 2, 201_000), (2, 1, 101_000));
        var noisy = AaRun(4, (1, 1, 100_000), (1, 2, 150_000), (2, 2, 90_000), (2, 1, 140_000));

        var settledBy = RunAnalysis.Of(differs).Settlement!;
        var unsettled = RunAnalysis.Of(noisy).Settlement!;

        var mean = settledBy.Comparisons.Single(c => c.Figure == ModeFigure.Mean).Result!;
        Assert.Equal(Settlement.Differs, mean.Settlement);
        Assert.True(mean.Estimate.Low > 1.05 && mean.Estimate.Low < 2 && mean.Estimate.High > 2, $"{mean.Estimate}");
        Assert.False(unsettled.AllSettled);
        Assert.Contains("stayed unsettled: grpc · compute threadpool (2nd) ÷ threadpool (1st) mean", SettlementText.Headline(unsettled), StringComparison.Ordinal);
    }

    [Fact]
    public void A_round_cut_short_is_not_looked_at_and_a_run_not_repeated_until_settled_has_no_settlement()
    {
        var cut = AaRun(8, (1, 1, 100_000), (1, 2, 100_000), (2, 2, 100_000), (2, 1, 100_000), (3, 2, 100_000));
        var fixedRun = Run([(Series("grpc", "compute", "threadpool"), Steady(100_000))]);

        Assert.Equal(2, RunAnalysis.Of(cut).Settlement!.Rounds);
        Assert.Null(RunAnalysis.Of(fixedRun).Settlement);
    }

    [Fact]
    public void A_figure_that_cannot_have_an_interval_does_not_hold_the_run_and_is_named()
    {
        // Same latency in every series: each figure identical in every repetition, so no look has an interval. More
        // rounds would not change that; the run must not be held to its last round for it.
        var run = AaRun(8, (1, 1, 100_000), (1, 2, 100_000), (2, 2, 100_000), (2, 1, 100_000));

        var settlement = RunAnalysis.Of(run).Settlement!;

        Assert.All(settlement.Comparisons, c => Assert.True(c.Unjudgeable && c.Result is null, c.ToString()));
        Assert.True(settlement.AllSettled);
        Assert.Empty(settlement.Unsettled);
        Assert.Contains("3 could not be judged (no interval", SettlementText.Headline(settlement), StringComparison.Ordinal);
    }
}
