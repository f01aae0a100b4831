using Harness.LoadTests.Recording;
using static Harness.LoadTests.Reporting.Tests.Runs;

namespace Harness.LoadTests.Reporting.Tests;

public sealed class CompareReportTests : IDisposable
{
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "harness-compare-" + Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }

    /// <summary>
    /// A run of grpc-compute-iocp, one series per value of <paramref name="ms"/> (repetitions when several): 10 s of 50
    /// requests a second, every request taking that many ms, so mean and p99 are exactly it.
    /// </summary>
    internal static RunData RunOf(string runId, params double[] ms)
    {
        var series = ms.Select((value, i) =>
        {
            var info = ms.Length == 1 ? Series("grpc", "compute", "iocp")
                : Series("grpc", "compute", "iocp", id: $"grpc-compute-iocp-{i + 1}", offset: i * 12) with { Repetition = i + 1 };
            IReadOnlyList<SecondSample> samples = [.. Enumerable.Range(0, 10).Select(s =>
                Sample(s, 4, Histogram(((long)(value * 1000), 50)), server: Server("iocp", 20 + i, 2, 0, s * 0.3, s * 500.0, s * 50.0)))];
            return (info, samples);
        });
        return Run(series, runId: runId);
    }

    [Fact]
    public void Worse_beyond_the_limit_fails_the_gate_a_steady_run_passes_and_a_noisy_one_is_inconclusive()
    {
        var a = RunOf("a", 100, 102, 104);
        var worse = RunOf("worse", 120, 122, 124);
        var steady = RunOf("steady", 101, 102, 103);
        var noisy = RunOf("noisy", 95, 110, 125);

        var failed = ComparisonWriter.Run([a, worse], Path.Combine(_directory, "worse"), failOnRegressionPercent: 5);
        var passed = ComparisonWriter.Run([a, steady], Path.Combine(_directory, "steady"), failOnRegressionPercent: 5);
        var unsure = ComparisonWriter.Run([a, noisy], Path.Combine(_directory, "noisy"), failOnRegressionPercent: 5);

        // The gate judges mean and p99 (2 figures), each one-sided against +5 % on the log-t of the two runs' 3 + 3
        // repetitions (4 degrees of freedom, t(0.975) = 2.7764, t(0.9875) = 3.4954).
        // worse: geometric means 121.99 ÷ 101.99 = 1.19612 (+19.6 %), se 0.014758. Holm: the tests are equal, the mean
        // goes first at α/2, the p99 second at α; the p99's bound, one-sided at 95 %, is 1.19612 × e^(−2.1318 × 0.014758)
        // = 1.1591, worse by at least +15.9 % (the 95 % two-sided interval's low end, +14.8 %, is what the table shows).
        Assert.Equal(ComparisonWriter.ExitRegression, failed.ExitCode);
        Assert.Equal(["mean", "p99"], failed.Regressions.Select(r => ModeFigures.Name(r.Figure.Figure)));
        var p99 = failed.Regressions[1].Figure;
        Assert.Equal(121.989070059 / 101.986926429 * 100 - 100, p99.DeltaPercent!.Value, 6);
        var test = RatioTest.Of([.. new[] { 120.0, 122, 124 }.Select(v => new Observation(0, v))], [.. new[] { 100.0, 102, 104 }.Select(v => new Observation(0, v))]).Test!;
        Assert.Equal(0.014757795, test.StandardError, 8);
        Assert.Equal((test.Interval(0.95).Low - 1) * 100, p99.WorseBeyondNoisePercent!.Value, 9);
        Assert.Equal(14.810483, p99.WorseBeyondNoisePercent!.Value, 5);
        Assert.StartsWith("Regression gate: FAIL", failed.GateLines[0], StringComparison.Ordinal);
        Assert.True(File.Exists(failed.Files!.Html));

        // steady: 102.00 ÷ 101.99 = 1.0001, se 0.012658; the worst bound, one-sided at 1 − 0.05/2, 1.0001 × e^(2.7764 ×
        // 0.012658) = 1.0359, is below +5 % for both figures: pass. The report's two-sided interval at 1 − 0.05/2,
        // 0.9568 to 1.0453, lies within ±5 %: no difference beyond ±5 %.
        Assert.Equal(ComparisonWriter.ExitOk, passed.ExitCode);
        Assert.Empty(passed.Regressions);
        Assert.StartsWith("Regression gate: pass", passed.GateLines[0], StringComparison.OrdinalIgnoreCase);
        var gate = MultiRunComparison.Build([a, steady]).Gate(5);
        Assert.Equal(GateOutcome.Pass, gate.Outcome);
        Assert.All(gate.Figures, f => Assert.Equal(1.035870, f.Verdict!.WorstBound, 5));
        var flat = MultiRunComparison.Build([a, steady]).Series.Single().Against[1]!.Single(f => f.Figure == ModeFigure.Mean);
        Assert.Equal((RatioVerdict.NoDifference, 0.9568, 1.0453), (flat.Ratio.Verdict, Math.Round(flat.Ratio.Low!.Value, 4), Math.Round(flat.Ratio.High!.Value, 4)));
        Assert.Contains("no difference beyond ±5 %", File.ReadAllText(passed.Files!.Markdown), StringComparison.Ordinal);

        // noisy: 109.31 ÷ 101.99 = 1.0718, se 0.080089: its worst bound, 1.0718 × e^(2.7764 × 0.080089) = 1.3388, could be
        // +34 %, and its best, 0.858, is no regression: inconclusive, exit 7; the table says so with its bounds.
        Assert.Equal(ComparisonWriter.ExitInconclusive, unsure.ExitCode);
        Assert.Empty(unsure.Regressions);
        Assert.Contains("could be as much as +34 %", string.Join("\n", unsure.GateLines), StringComparison.Ordinal);
        var noise = MultiRunComparison.Build([a, noisy]).Series.Single().Against[1]!.Single(f => f.Figure == ModeFigure.P99);
        Assert.Equal(RatioVerdict.Inconclusive, noise.Ratio.Verdict);
        Assert.Contains("+7.2 % (-19.0 % to +41.8 %) inconclusive", File.ReadAllText(unsure.Files!.Markdown), StringComparison.Ordinal);
        Assert.Equal(ComparisonWriter.ExitOk, ComparisonWriter.Run([a, noisy], Path.Combine(_directory, "noisy-pass"), 5, onInconclusive: InconclusiveGate.Pass).ExitCode);
        Assert.Equal(ComparisonWriter.ExitRegression, ComparisonWriter.Run([a, noisy], Path.Combine(_directory, "noisy-fail"), 5, onInconclusive: InconclusiveGate.Fail).ExitCode);
    }

    [Fact]
    public void A_single_run_on_both_sides_is_not_judged_and_the_gate_exits_2_saying_so()
    {
        // Arrange
        var a = RunOf("a", 100);

        // Act
        var single = ComparisonWriter.Run([a, RunOf("b", 150)], _directory, 5);

        // Assert: +50 %, but nothing says how far two processes of one build would be apart; a pass would say nothing.
        Assert.Equal(ComparisonWriter.ExitRefused, single.ExitCode);
        Assert.Empty(single.Regressions);
        Assert.Contains("not judged: no mean or p99 the gate would judge (2) has an interval (each side a single run, or a figure of 0)", single.GateLines[0], StringComparison.Ordinal);
        Assert.Contains("--repeat 2", single.GateLines[0], StringComparison.Ordinal);
        Assert.True(File.Exists(single.Files!.Html));
    }

    [Fact]
    public void A_single_run_against_repetitions_is_judged_on_the_repetitions_noise()
    {
        var a = RunOf("a", 100, 102, 104);

        // A's noise alone (s = 0.019611 on the log, 1 + 3 − 2 = 2 degrees of freedom), se = s × √(1 + 1/3) = 0.022644;
        // t(2 df): 4.3027 at 97.5 %, 2.9200 at 95 %.
        // 120: 120 ÷ 101.99 = 1.1766. Holm takes the mean first at α/2: its best bound 1.1766 × e^(−4.3027 × 0.022644)
        // = 1.0674 is above +5 %: fail, and so the p99 at α (1.1013).
        // 106: 1.0393; its worst bound at 1 − α/2, 1.0393 × e^(4.3027 × 0.022644) = 1.1457, could be +15 %, its best
        // (0.943) is no regression: inconclusive (exit 7), judged on A's noise rather than not judged (exit 2).
        var worse = ComparisonWriter.Run([a, RunOf("b", 120)], _directory, 5);
        var close = ComparisonWriter.Run([a, RunOf("c", 106)], _directory, 5);

        Assert.Equal(ComparisonWriter.ExitRegression, worse.ExitCode);
        var failed = MultiRunComparison.Build([a, RunOf("b", 120)]).Gate(5).Figures;
        Assert.Equal([1.0674, 1.1013], failed.Select(f => Math.Round(f.Verdict!.BestBound, 4)));
        Assert.Equal(ComparisonWriter.ExitInconclusive, close.ExitCode);
        Assert.All(MultiRunComparison.Build([a, RunOf("c", 106)]).Gate(5).Figures, f => Assert.Equal((1.1457, false, false), (Math.Round(f.Verdict!.WorstBound, 4), f.Verdict.Fails, f.Verdict.Clears)));
        Assert.Contains("could be as much as +15 %", string.Join("\n", close.GateLines), StringComparison.Ordinal);

        // With c in the comparison, the family has 4 figures and b's mean is first tested at α/4 (t(2 df, 98.75 %) =
        // 6.2053): +17.7 % no longer clears +5 % (best bound 1.0224), so the three runs are inconclusive; +27.5 % (130 ms:
        // 1.2746 × e^(−6.2053 × 0.022644) = 1.1076) still fails, whichever run it is in.
        Assert.Equal(ComparisonWriter.ExitInconclusive, ComparisonWriter.Run([a, RunOf("c", 106), RunOf("b", 120)], _directory, 5).ExitCode);
        Assert.Equal(ComparisonWriter.ExitRegression, ComparisonWriter.Run([a, RunOf("c", 106), RunOf("b", 130)], _directory, 5).ExitCode);
    }

    [Fact]
    public void The_gate_refuses_runs_of_another_scale_profile_or_operation_and_writes_nothing()
    {
        var a = RunOf("a", 100);
        var scaled = RunOf("b", 100);
        scaled = scaled with { Manifest = scaled.Manifest with { TimeScale = 0.5 } };
        var other = RunOf("c", 100);
        other = other with { Manifest = other.Manifest with { Profile = "quick" } };
        var heavier = RunOf("d", 100);
        heavier = heavier with { Manifest = heavier.Manifest with { Series = [heavier.Manifest.Series[0] with { Parameters = new Dictionary<string, string> { ["delayMs"] = "8000" } }] } };

        var outcomes = new[] { scaled, other, heavier }.Select((run, i) => ComparisonWriter.Run([a, run], Path.Combine(_directory, $"r{i}"), 5)).ToList();

        Assert.All(outcomes, o => Assert.Equal(ComparisonWriter.ExitRefused, o.ExitCode));
        Assert.All(outcomes, o => Assert.DoesNotContain('\n', o.Refusal!));
        Assert.Contains("time scale: A 1, B 0.5", outcomes[0].Refusal, StringComparison.Ordinal);
        Assert.Contains("profile: A ran 'ramp', B ran 'quick'", outcomes[1].Refusal, StringComparison.Ordinal);
        Assert.Contains("operation parameters", outcomes[2].Refusal, StringComparison.Ordinal);
        Assert.False(Directory.Exists(_directory));

        // Without a gate the comparison is written, its differences listed first.
        var ungated = ComparisonWriter.Run([a, scaled], _directory);
        Assert.Equal(ComparisonWriter.ExitOk, ungated.ExitCode);
        Assert.Contains("time scale: A 1, B 0.5", File.ReadAllText(ungated.Files!.Markdown), StringComparison.Ordinal);
    }

    [Fact]
    public void The_report_goes_beside_run_b_and_the_limit_reads_as_a_percentage()
    {
        var runs = new[] { RunOf("20261122-011900", 100), RunOf("20261123-090000", 100) };

        Assert.Equal(Path.Combine("/data/reports", "compare-20261122-011900-vs-20261123-090000"), ComparisonWriter.DefaultDirectory("/data/reports/20261123-090000/", runs));
        Assert.Equal(5, ComparisonWriter.ParsePercent("5%"));
        Assert.Equal(2.5, ComparisonWriter.ParsePercent(" 2.5 % "));
        Assert.Throws<FormatException>(() => ComparisonWriter.ParsePercent("five"));
        Assert.Throws<FormatException>(() => ComparisonWriter.ParsePercent("-5%"));
    }

    [Fact]
    public void Series_are_paired_by_mode_with_their_repetitions_and_those_of_one_run_only_are_listed()
    {
        var a = RunOf("a", 100, 102, 104);
        var b = Run([(Series("grpc", "compute", "iocp"), RunOf("x", 110).Timelines["grpc-compute-iocp"]), (Series("soap", "compute", "iocp"), RunOf("y", 50).Timelines["grpc-compute-iocp"])], runId: "b");

        var comparison = MultiRunComparison.Build([a, b]);

        Assert.Equal(["grpc-compute-iocp", "soap-compute-iocp"], comparison.Series.Select(s => s.Key));
        Assert.Equal([3, 1], comparison.Series[0].ByRun.Select(r => r.Count));
        Assert.Null(comparison.Series[1].Against[1]);
        Assert.False(comparison.Series[1].InAllRuns);
        Assert.Contains("not in run A", ComparisonHtml.Render(comparison), StringComparison.Ordinal);
    }
}
