using Xunit.Abstractions;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>
/// The report's and the gate's verdicts read as a family, on simulated runs whose truth is known (fixed seeds): an A/A
/// main job, an A/A pair of runs through the gate, and A/B runs with a true difference. Each simulation measures the
/// rule of today (<see cref="VerdictFamily"/>, <see cref="GateFamily"/>) and the rule it replaced
/// (<see cref="LegacyVerdicts"/>), so a later change that brings the old rates back fails here.
/// </summary>
public sealed class FamilyVerdictTests(ITestOutputHelper output)
{
    private const int SimulatedRuns = 2000;

    // The claimed 5 %, plus three standard errors of a rate measured over SimulatedRuns runs.
    private static readonly double ClaimedPlusSampling = 0.05 + (3 * Math.Sqrt(0.05 * 0.95 / SimulatedRuns));

    [Theory]
    [InlineData(0.10, 2)]
    [InlineData(0.10, 4)]
    [InlineData(0.20, 2)]
    public void An_AA_main_job_marks_something_in_at_most_5_percent_of_runs_where_the_old_rule_marked_most(double noise, int rounds)
    {
        // Arrange: the main job's shape, 6 groups × 3 equal modes, every figure 10 % (or 20 %) log-normal per process.
        var machine = new SimulatedMainJob(Seed: 41, noise);
        int newAny = 0, oldAny = 0, oldMarks = 0;

        // Act
        for (var run = 0; run < SimulatedRuns; run++)
        {
            var job = machine.Run(rounds, trueRatio: 1.0);
            var verdicts = VerdictFamily.Judge(job.Members(), ModeRatio.Tolerance);
            newAny += verdicts.Any(v => v.Verdict is RatioVerdict.Better or RatioVerdict.Worse) ? 1 : 0;
            var marks = job.LegacyMarks();
            oldMarks += marks;
            oldAny += marks > 0 ? 1 : 0;
        }

        // Assert
        var (newRate, oldRate) = (newAny / (double)SimulatedRuns, oldAny / (double)SimulatedRuns);
        output.WriteLine("A/A main job, {0:P0} noise, {1} rounds: any mark: family {2:P1}; old rule {3:P1} ({4:F2} marks a run)",
            noise, rounds, newRate, oldRate, oldMarks / (double)SimulatedRuns);
        Assert.InRange(newRate, 0, ClaimedPlusSampling);
        Assert.True(oldRate > 0.6, $"the old rule marked an A/A main job in only {oldRate:P1} of runs; it was measured at 77–99 %");
        Assert.True(oldMarks / (double)SimulatedRuns > 2, "the old rule should mark several ratios per A/A run");
    }

    [Theory]
    [InlineData(0.0, 0.00)]
    [InlineData(0.05, 0.00)]
    [InlineData(0.10, 0.00)]
    [InlineData(0.05, 0.05)]
    public void An_AA_pair_of_runs_fails_the_gate_in_at_most_5_percent_where_the_old_gate_failed_up_to_4_in_10(double limit, double shift)
    {
        // Arrange: two runs of one build, 12 series each repeated twice, mean and p99 gated (24 figures); run B may be
        // shifted by exactly the limit, so failing it would still be a false alarm.
        var machine = new SimulatedMainJob(Seed: 43, 0.10);
        int newFails = 0, newPasses = 0, oldFails = 0;

        for (var run = 0; run < SimulatedRuns; run++)
        {
            var (members, legacy) = machine.GatePair(repetitions: 2, shift: shift);
            var (outcome, _) = GateFamily.Judge(members, limit);
            newFails += outcome == GateOutcome.Fail ? 1 : 0;
            newPasses += outcome == GateOutcome.Pass ? 1 : 0;
            oldFails += legacy.Any(l => l.Worse(limit)) ? 1 : 0;
        }

        var (newRate, oldRate) = (newFails / (double)SimulatedRuns, oldFails / (double)SimulatedRuns);
        output.WriteLine("A/A gate at {0:P0} (shift {1:P0}): fails {2:P1}, passes {3:P1}, inconclusive {4:P1}; old gate failed {5:P1}",
            limit, shift, newRate, newPasses / (double)SimulatedRuns, 1 - ((newFails + newPasses) / (double)SimulatedRuns), oldRate);
        Assert.InRange(newRate, 0, ClaimedPlusSampling);
        if (limit == 0 && shift == 0)
        {
            Assert.True(oldRate > 0.3, $"the old gate failed an unchanged build in only {oldRate:P1} of pairs at P=0; it was measured at 42 %");
        }
    }

    [Fact]
    public void A_regression_larger_than_the_limit_passes_the_gate_in_at_most_5_percent()
    {
        // Arrange: run B 20 % slower on every figure, the gate at 10 %: a pass would let a real regression through.
        var machine = new SimulatedMainJob(Seed: 47, 0.10);
        var passes = 0;

        for (var run = 0; run < SimulatedRuns; run++)
        {
            var (members, _) = machine.GatePair(repetitions: 3, shift: 0.20);
            passes += GateFamily.Judge(members, 0.10).Outcome == GateOutcome.Pass ? 1 : 0;
        }

        Assert.InRange(passes / (double)SimulatedRuns, 0, ClaimedPlusSampling);
    }

    [Theory]
    [InlineData(4)]
    [InlineData(8)]
    public void A_true_difference_is_found_more_often_the_larger_it_is_and_never_in_the_wrong_direction(int rounds)
    {
        // Arrange: one mode of every group slower by 10, 20 or 40 %, the rest equal.
        var machine = new SimulatedMainJob(Seed: 53, 0.10);
        var found = new Dictionary<double, double>();
        const int Runs = 400;

        foreach (var change in new[] { 0.10, 0.20, 0.40 })
        {
            int hits = 0, wrongRuns = 0, total = 0;
            for (var run = 0; run < Runs; run++)
            {
                var wrong = 0;
                var job = machine.Run(rounds, trueRatio: 1 + change);
                var verdicts = VerdictFamily.Judge(job.Members(), ModeRatio.Tolerance);
                foreach (var (_, verdict) in job.Truths.Zip(verdicts).Where(p => p.First.Changed))
                {
                    total++;
                    // The changed mode is slower: worse on every figure (its req/s lower), whichever way each figure is better.
                    hits += verdict.Verdict == RatioVerdict.Worse ? 1 : 0;
                    wrong += verdict.Verdict == RatioVerdict.Better ? 1 : 0;
                }

                wrongRuns += wrong > 0 ? 1 : 0;
            }

            found[change] = hits / (double)total;
            output.WriteLine("{0} rounds, true change {1:P0}: found {2:P1} of comparisons; a run with one in the wrong direction: {3:P1}", rounds, change, found[change], wrongRuns / (double)Runs);
            // A difference in the wrong direction is one of the family's errors: at most 5 % of runs make any.
            Assert.InRange(wrongRuns / (double)Runs, 0, 0.05 + (3 * Math.Sqrt(0.05 * 0.95 / Runs)));
        }

        Assert.True(found[0.10] <= found[0.20] && found[0.20] <= found[0.40], "power must grow with the size of the change");
        if (rounds == 8)
        {
            Assert.True(found[0.40] > 0.5, $"8 rounds at 10 % noise should find a 40 % change more often than not, found {found[0.40]:P1}");
        }
    }

    [Fact]
    public void The_power_the_report_quotes_matches_how_often_a_simulated_change_is_found()
    {
        // Arrange: one comparison, 4 rounds, 10 % noise, a true 40 % change, judged alone at 95 %.
        var random = new Random(59);
        var hits = 0;
        double? quoted = null;
        const int runs = 3000;

        for (var run = 0; run < runs; run++)
        {
            var baseline = Enumerable.Range(1, 4).Select(r => new Observation(r, 100 * Math.Exp(0.1 * Gaussian(random)))).ToList();
            var value = baseline.Select(o => new Observation(o.Round, 140 * Math.Exp(0.1 * Gaussian(random)))).ToList();
            var test = RatioTest.Of(value, baseline).Test!;
            hits += VerdictFamily.Judge([new FamilyMember(test, true)], ModeRatio.Tolerance)[0].Verdict == RatioVerdict.Worse ? 1 : 0;

            // The quoted power uses the true noise: sd of a paired difference √2 × 10 %, over √4.
            quoted ??= (test with { StandardError = Math.Sqrt(2) * 0.1 / 2 }).Power(0.40, ModeRatio.Tolerance, 0.95);
        }

        output.WriteLine("quoted power {0:P1}, simulated {1:P1}", quoted, hits / (double)runs);
        Assert.InRange(hits / (double)runs, quoted!.Value - 0.04, quoted.Value + 0.04);
    }

    [Fact]
    public void Two_repetitions_whose_interval_spans_the_band_are_inconclusive_and_say_what_they_could_not_exclude()
    {
        var ratio = ModeRatio.Of([new(1, 105), new(2, 95)], [new(1, 100), new(2, 101)]);
        var judged = ModeRatio.Judged(ratio.Test!, VerdictFamily.Judge([new FamilyMember(ratio.Test!, true)], ModeRatio.Tolerance)[0]);

        Assert.Equal(RatioVerdict.Inconclusive, judged.Verdict);
        Assert.Equal(RatioMethod.PairedByRound, judged.Test!.Method);
        Assert.Matches(@"^0\.\d\d× \(0\.\d\d–\d+\.\d+\) inconclusive: between −\d+ % and \+\d+ %$", Formats.FigureText.RatioWithVerdict(judged));
    }

    [Fact]
    public void Identical_repetitions_give_no_interval_rather_than_a_zero_width_one()
    {
        var ratio = ModeRatio.Of([new(1, 108), new(2, 108)], [new(1, 100), new(2, 100)]);

        Assert.Equal(RatioVerdict.NoInterval, ratio.Verdict);
        Assert.False(ratio.HasSpread);
    }

    [Fact]
    public void A_figure_with_a_zero_has_no_interval_and_is_never_judged_by_its_extremes()
    {
        // Error rates [0, 0.02] against [0.05, 0.06]: the old min–max rule said "worse, 2.5–∞".
        var ratio = ModeRatio.Of([new(1, 0.05), new(2, 0.06)], [new(1, 0), new(2, 0.02)]);

        Assert.Equal(RatioVerdict.NoInterval, ratio.Verdict);
        Assert.Null(ratio.Test);
    }

    private static double Gaussian(Random random) =>
        Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
}
