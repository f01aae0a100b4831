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
    public void Worse_beyond_the_noise_fails_the_gate_and_within_the_noise_passes()
    {
        var a = RunOf("a", 100, 102, 104);
        var worse = RunOf("worse", 120, 122, 124);
        var noisy = RunOf("noisy", 95, 110, 125);

        var failed = ComparisonWriter.Run([a, worse], Path.Combine(_directory, "worse"), failOnRegressionPercent: 5);
        var passed = ComparisonWriter.Run([a, noisy], Path.Combine(_directory, "noisy"), failOnRegressionPercent: 5);

        // worse: medians 122 ÷ 102 = +19.6 %; the 95 % interval from both runs' noise is all worse, at least +14.8 %.
        Assert.Equal(ComparisonWriter.ExitRegression, failed.ExitCode);
        Assert.Equal(["mean", "p99"], failed.Regressions.Select(r => ModeFigures.Name(r.Figure.Figure)));
        var p99 = failed.Regressions[1].Figure;
        Assert.Equal(122.0 / 102 * 100 - 100, p99.DeltaPercent!.Value, 9);
        var interval = RepetitionNoise.Across([[100, 102, 104]], [[120, 122, 124]])!.Ratio([120, 122, 124], [100, 102, 104], ModeRatio.Confidence)!;
        Assert.Equal((interval.Low - 1) * 100, p99.WorseBeyondNoisePercent!.Value, 9);
        Assert.StartsWith("Regression gate: FAIL", failed.GateLines[0], StringComparison.Ordinal);
        Assert.True(File.Exists(failed.Files!.Html));

        // noisy: median 110 is +7.8 %, but its interval holds no change.
        Assert.Equal(ComparisonWriter.ExitOk, passed.ExitCode);
        Assert.Empty(passed.Regressions);
        var noise = MultiRunComparison.Build([a, noisy]).Series.Single().Against[1]!.Single(f => f.Figure == ModeFigure.P99);
        Assert.Equal(RatioVerdict.Inconclusive, noise.Ratio.Verdict);
        Assert.Contains("inconclusive", File.ReadAllText(passed.Files!.Markdown), StringComparison.Ordinal);
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
        Assert.Contains("not judged: every mean and p99 the gate would judge (2) is of a single run", single.GateLines[0], StringComparison.Ordinal);
        Assert.Contains("--repeat 2", single.GateLines[0], StringComparison.Ordinal);
        Assert.True(File.Exists(single.Files!.Html));
    }

    [Fact]
    public void A_single_run_against_repetitions_is_judged_on_the_repetitions_noise()
    {
        var a = RunOf("a", 100, 102, 104);

        // 120 against 100, 102, 104: the interval from A's noise (s ≈ 2 %, 2 degrees of freedom) starts at +6.7 %.
        var worse = ComparisonWriter.Run([a, RunOf("b", 120)], _directory, 5);
        var close = ComparisonWriter.Run([a, RunOf("c", 106)], _directory, 5);

        Assert.Equal(ComparisonWriter.ExitRegression, worse.ExitCode);
        Assert.Equal(ComparisonWriter.ExitOk, close.ExitCode);
        Assert.Equal(ComparisonWriter.ExitRegression, ComparisonWriter.Run([a, RunOf("c", 106), RunOf("b", 120)], _directory, 5).ExitCode);
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
