using Xunit.Abstractions;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>
/// The rule behind <c>--repeat auto</c>, checked on simulated runs whose truth is known: over many simulated A/A
/// runs it declares a difference no more often than it claims, and a naive rule measured the same way does not.
/// </summary>
public sealed class SequentialRuleTests(ITestOutputHelper output)
{
    private const int SimulatedRuns = 3000;

    // The claimed rate (5 %) plus three standard errors of a rate measured over SimulatedRuns runs.
    private static readonly double _claimedPlusSampling = 0.05 + (3 * Math.Sqrt(0.05 * 0.95 / SimulatedRuns));

    [Theory]
    [InlineData(0.10, 0.0, false)]
    [InlineData(0.10, 0.0, true)]
    [InlineData(0.15, 0.02, true)]
    public void Over_simulated_AA_runs_the_rule_declares_a_difference_no_more_often_than_it_claims(double sd, double drift, bool slowProcesses)
    {
        var machine = new SimulatedMachine(Seed: 11, sd, drift, slowProcesses);
        var rule = SequentialRule.Create(SequentialRule.DefaultMaxRounds);

        var outcomes = Enumerable.Range(0, SimulatedRuns).Select(_ => machine.RunUntilSettled(rule, trueRatio: 1.0)).ToList();
        var differences = outcomes.Count(o => o.Settlement == Settlement.Differs) / (double)SimulatedRuns;
        output.WriteLine("A/A runs declared different: {0:P2}; settled as within 5 %: {1:P2}; mean rounds {2:F1}", differences,
            outcomes.Count(o => o.Settlement == Settlement.NoLargerThanTolerance) / (double)SimulatedRuns, outcomes.Average(o => o.Rounds));

        Assert.InRange(differences, 0, _claimedPlusSampling);
    }

    [Fact]
    public void The_same_simulation_catches_a_rule_that_looks_without_correcting_for_the_looks()
    {
        // Arrange: each look at 95 % on its own (the overall level that gives 95 % per look), nothing carried.
        var machine = new SimulatedMachine(Seed: 11, Sd: 0.10, Drift: 0, SlowProcesses: true);
        var looks = SequentialRule.DefaultMaxRounds / 2;
        var naive = new SequentialRule(SequentialRule.DefaultMaxRounds, Confidence: 1 - (0.05 * looks));

        var outcomes = Enumerable.Range(0, SimulatedRuns).Select(_ => machine.RunUntilSettled(naive, trueRatio: 1.0, uncorrected: true)).ToList();
        var differences = outcomes.Count(o => o.Settlement == Settlement.Differs) / (double)SimulatedRuns;
        output.WriteLine("naive rule: A/A runs declared different: {0:P2}", differences);

        Assert.True(differences > _claimedPlusSampling, $"the naive rule declared a difference in {differences:P1} of A/A runs");
    }

    [Fact]
    public void With_two_runs_of_each_mode_the_interval_colours_an_AA_difference_no_more_often_than_it_claims_and_the_old_extremes_rule_did()
    {
        // Arrange: the main job's design, each mode twice (A B B A), judged once at 95 %.
        var machine = new SimulatedMachine(Seed: 17, Sd: 0.10, Drift: 0, SlowProcesses: true);
        var interval = 0;
        var extremes = 0;

        for (var run = 0; run < SimulatedRuns; run++)
        {
            var (a, b) = machine.Rounds(2, trueRatio: 1.0);
            var test = ModeRatio.Of(Paired(b), Paired(a)).Test!;
            var ratio = VerdictFamily.Judge([new FamilyMember(test, LowerIsBetter: true)], ModeRatio.Tolerance)[0];
            // The extremes rule: coloured when the two ranges do not overlap and the medians differ by more than 5 %.
            var apart = b.Min() > a.Max() || b.Max() < a.Min();
            var old = apart && Math.Abs((Spread.Of(b)!.Median / Spread.Of(a)!.Median) - 1) > 0.05;
            interval += ratio.Verdict is RatioVerdict.Better or RatioVerdict.Worse ? 1 : 0;
            extremes += old ? 1 : 0;
        }

        output.WriteLine("coloured A/A ratios: interval {0:P2}, extremes {1:P2}", interval / (double)SimulatedRuns, extremes / (double)SimulatedRuns);
        Assert.InRange(interval / (double)SimulatedRuns, 0, _claimedPlusSampling);
        Assert.True(extremes / (double)SimulatedRuns > 0.15, "the extremes rule, whose ranges of two do not overlap in a third of A/A runs, should colour many");
    }

    [Fact]
    public void A_real_difference_of_forty_percent_is_found_in_most_runs_and_never_called_no_difference()
    {
        var machine = new SimulatedMachine(Seed: 5, Sd: 0.10, Drift: 0, SlowProcesses: false);
        var rule = SequentialRule.Create(SequentialRule.DefaultMaxRounds);

        var outcomes = Enumerable.Range(0, 500).Select(_ => machine.RunUntilSettled(rule, trueRatio: 1.4)).ToList();

        Assert.True(outcomes.Count(o => o.Settlement == Settlement.Differs) > 400, "found in fewer than 80 % of the runs");
        Assert.DoesNotContain(outcomes, o => o.Settlement == Settlement.NoLargerThanTolerance);
        Assert.All(outcomes.Where(o => o.Settlement == Settlement.Differs), o => Assert.True(o.Estimate.Low > 1));
    }

    [Fact]
    public void A_real_difference_of_ten_percent_is_called_no_larger_than_five_no_more_often_than_claimed()
    {
        var machine = new SimulatedMachine(Seed: 7, Sd: 0.03, Drift: 0, SlowProcesses: false);
        var rule = SequentialRule.Create(SequentialRule.DefaultMaxRounds);

        var outcomes = Enumerable.Range(0, SimulatedRuns).Select(_ => machine.RunUntilSettled(rule, trueRatio: 1.10)).ToList();
        var wrong = outcomes.Count(o => o.Settlement == Settlement.NoLargerThanTolerance) / (double)SimulatedRuns;
        output.WriteLine("10 % runs called within 5 %: {0:P2}", wrong);

        Assert.InRange(wrong, 0, _claimedPlusSampling);
    }

    [Fact]
    public void On_a_quiet_machine_an_AA_run_settles_as_no_difference_larger_than_five_percent_before_the_last_round()
    {
        var machine = new SimulatedMachine(Seed: 3, Sd: 0.015, Drift: 0, SlowProcesses: false);
        var rule = SequentialRule.Create(SequentialRule.DefaultMaxRounds);

        var outcomes = Enumerable.Range(0, 200).Select(_ => machine.RunUntilSettled(rule, trueRatio: 1.0)).ToList();

        Assert.True(outcomes.Count(o => o.Settlement == Settlement.NoLargerThanTolerance) > 180);
        Assert.Contains(outcomes, o => o.Rounds < SequentialRule.DefaultMaxRounds);
    }

    [Fact]
    public void Once_settled_a_comparison_stays_settled_because_the_interval_only_narrows()
    {
        var rule = SequentialRule.Create(4);
        var first = rule.Look(null, RatioTest.Of(Paired([130, 131]), Paired([100, 101])).Test, rounds: 2)!;

        var second = rule.Look(first, RatioTest.Of(Paired([100, 160, 90, 120]), Paired([100, 101, 140, 90])).Test, rounds: 4)!;

        Assert.Equal(Settlement.Differs, first.Settlement);
        Assert.Equal(Settlement.Differs, second.Settlement);
        Assert.True(second.Estimate.Low >= first.Estimate.Low && second.Estimate.High <= first.Estimate.High);
        Assert.Equal(2, second.Rounds);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(3)]
    [InlineData(-2)]
    public void The_most_rounds_must_be_even_and_at_least_two(int maxRounds)
    {
        var error = Assert.Throws<ArgumentOutOfRangeException>(() => SequentialRule.Create(maxRounds));

        Assert.Contains("even and at least 2", error.Message, StringComparison.Ordinal);
    }

    // The i-th value of a mode ran in round i + 1.
    private static List<Observation> Paired(IReadOnlyList<double> values) => [.. values.Select((v, i) => new Observation(i + 1, v))];

    /// <summary>
    /// Two modes run in the run's balanced order, A B | B A | B A | A B…; each process's figure is the mode's true value times
    /// log-normal process noise, optionally a slow process now and then (20–70 % slower, as two processes of one
    /// build were measured here) and a drift over the run's places.
    /// </summary>
    private sealed record SimulatedMachine(int Seed, double Sd, double Drift, bool SlowProcesses)
    {
        private readonly Random _random = new(Seed);

        /// <summary>A run of <paramref name="rounds"/> rounds at once: mode A's values and mode B's.</summary>
        public (List<double> A, List<double> B) Rounds(int rounds, double trueRatio)
        {
            var (a, b) = (new List<double>(), new List<double>());
            var place = 0;
            for (var round = 1; round <= rounds; round++)
            {
                AddRound(round, a, b, ref place, trueRatio);
            }

            return (a, b);
        }

        public SettledRatio RunUntilSettled(SequentialRule rule, double trueRatio, bool uncorrected = false)
        {
            var a = new List<double>();
            var b = new List<double>();
            SettledRatio? carried = null;
            var place = 0;
            for (var round = 1; round <= rule.MaxRounds; round++)
            {
                AddRound(round, a, b, ref place, trueRatio);
                if (!rule.IsLook(round))
                {
                    continue;
                }

                // The naive rule keeps no interval from earlier looks: each look stands alone.
                carried = rule.Look(uncorrected ? null : carried, RatioTest.Of(Paired(b), Paired(a)).Test, round);
                if (carried is { IsSettled: true })
                {
                    return carried;
                }
            }

            return carried!;
        }

        private void AddRound(int round, List<double> a, List<double> b, ref int place, double trueRatio)
        {
            // The run's order for two modes (RepetitionOrder): A B | B A, then B A | A B, then again.
            var bFirst = (round % 2 == 0) != ((round - 1) / 2 % 2 == 1);
            foreach (var isB in bFirst ? new[] { true, false } : [false, true])
            {
                (isB ? b : a).Add(Process(place++) * (isB ? trueRatio : 1));
            }
        }

        private double Process(int place)
        {
            var value = 100 * Math.Exp((Sd * Gaussian()) + (Drift * place));
            if (SlowProcesses && _random.NextDouble() < 0.1)
            {
                value *= 1.2 + (0.5 * _random.NextDouble());
            }

            return value;
        }

        private double Gaussian() =>
            Math.Sqrt(-2 * Math.Log(1 - _random.NextDouble())) * Math.Cos(2 * Math.PI * _random.NextDouble());
    }
}
