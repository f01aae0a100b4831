using Harness.LoadTests.Recording;
using static Harness.LoadTests.Reporting.Tests.Runs;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>
/// An A/A run: one mode listed three times (<c>--modes threadpool,threadpool,threadpool --repeat 2</c>), so every
/// difference between its listings is noise. Its summary must compare the 2nd and 3rd listing with the 1st and call
/// none of them better or worse, and the regression gate of two such runs must not fail.
/// </summary>
public sealed class AaListingsTests
{
    private const int Seconds = 10;
    private const int Users = 8;

    // 10 % process noise: each series' latency is the stack's own times e^(0.1·Z), Z standard normal.
    private const double ProcessNoise = 0.10;

    /// <summary>
    /// Both stacks of compute, the three listings of threadpool in the plan's order (round 1: 1st 2nd 3rd; round 2:
    /// 3rd 2nd 1st), repetitions numbered 1…6 in run order as the runner numbers them. Every series is the same
    /// process on the same machine: within a second its requests spread ±10 % about the series' level, and a closed
    /// model's 8 users complete 8 ÷ latency requests a second, so req/s carries the same noise as the latency.
    /// </summary>
    private static RunData AaRun(int seed)
    {
        var random = new Random(seed);
        double Normal() => Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
        (int Round, int Slot)[] places = [(1, 1), (1, 2), (1, 3), (2, 3), (2, 2), (2, 1)];
        var list = new List<(SeriesInfo, IReadOnlyList<SecondSample>)>();
        foreach (var (place, repetition) in places.Select((p, i) => (p, i + 1)))
        {
            foreach (var stack in new[] { "grpc", "soap" })
            {
                var level = 40.0 * Math.Exp(ProcessNoise * Normal());
                var info = Series(stack, "compute", "threadpool", offset: list.Count * (Seconds + 2), id: $"{stack}-compute-threadpool-{repetition}")
                    with { Repetition = repetition, Round = place.Round, Slot = place.Slot };
                var perSecond = (long)Math.Round(Users * 1000 / level);
                IReadOnlyList<SecondSample> samples = [.. Enumerable.Range(0, Seconds).Select(s =>
                {
                    var latency = new LatencyHistogram();
                    for (var r = 0; r < perSecond; r++)
                    {
                        latency.Record((long)(level * (0.9 + (0.2 * random.NextDouble())) * 1000));
                    }

                    return Sample(s, Users, latency);
                })];
                list.Add((info, samples));
            }
        }

        var run = Run(list, runId: "20261127-213000");
        return run with { Manifest = run.Manifest with { CommandLine = "harness run --profile steady --modes threadpool,threadpool,threadpool --repeat 2" } };
    }

    [Fact]
    public void Three_listings_of_one_mode_are_compared_with_the_first_and_none_is_called_better_or_worse()
    {
        // Arrange
        var run = AaRun(seed: 35);

        // Act
        var analysis = RunAnalysis.Of(run);
        var markdown = MarkdownReport.Render(analysis);
        var html = System.Net.WebUtility.HtmlDecode(HtmlReport.Render(analysis));

        // Assert: one arm per listing, the 1st the baseline, each arm one series per round.
        Assert.Equal(2, analysis.Groups.Count);
        foreach (var group in analysis.Groups)
        {
            Assert.Equal(["threadpool (1st)", "threadpool (2nd)", "threadpool (3rd)"], group.Modes.Select(m => m.Label));
            Assert.Equal("threadpool (1st)", group.Baseline);
            Assert.All(group.Modes, m => Assert.Equal([1, 2], m.Rows.Select(r => r.Summary.Series.Round).Order()));
            foreach (var mode in group.Modes.Skip(1))
            {
                foreach (var figure in ReportVerdicts.ModeFiguresJudged)
                {
                    // Both listings ran once in each round: paired by round, 2 rounds, 1 degree of freedom.
                    var ratio = mode.RatioOf(figure);
                    Assert.Equal((RatioMethod.PairedByRound, 1), (ratio.Test!.Method, ratio.Test.DegreesOfFreedom));
                    Assert.True(ratio.IsJudged, $"{group.Title} {mode.Label} {figure}: {ratio.Verdict}");
                    Assert.NotEqual(RatioVerdict.Better, ratio.Verdict);
                    Assert.NotEqual(RatioVerdict.Worse, ratio.Verdict);
                }
            }
        }

        // The markdown's ratio tables: the 1st is the base, the 2nd and 3rd are judged against it, and no row says
        // better or worse; their verdict says what the run could not exclude.
        var ratioTables = RatioTableRows(markdown).ToList();
        Assert.Equal(2 * 3, ratioTables.Count);
        Assert.Equal(2, ratioTables.Count(r => r.StartsWith("| threadpool (1st) | base |", StringComparison.Ordinal)));
        Assert.Equal(4, ratioTables.Count(r => r.StartsWith("| threadpool (2nd) |", StringComparison.Ordinal) || r.StartsWith("| threadpool (3rd) |", StringComparison.Ordinal)));
        Assert.All(ratioTables, r => Assert.DoesNotMatch(@"\b(better|worse)\b", r));
        Assert.Contains(ratioTables, r => r.Contains("inconclusive: between −", StringComparison.Ordinal));
        Assert.DoesNotContain("within noise", markdown, StringComparison.Ordinal);

        // Nowhere else in the summary either: every table row (modes, gRPC ÷ SOAP), the noise-floor sentence, the HTML cells.
        Assert.All(markdown.Split('\n').Where(l => l.StartsWith('|')), l => Assert.DoesNotMatch(@"\b(better|worse)\b", l));
        Assert.Contains("none of the", markdown, StringComparison.Ordinal);
        Assert.DoesNotContain("class=\"better\"", html, StringComparison.Ordinal);
        Assert.DoesNotContain("class=\"worse\"", html, StringComparison.Ordinal);
    }

    [Fact]
    public void The_gate_of_two_such_runs_does_not_fail()
    {
        // Arrange: two A/A runs of the same build, each with its own noise.
        var directory = Path.Combine(Path.GetTempPath(), "harness-aa-gate-" + Guid.NewGuid().ToString("N"));
        var a = AaRun(seed: 35);
        var b = AaRun(seed: 36);
        b = b with { Manifest = b.Manifest with { RunId = "20261127-220000" } };

        try
        {
            // Act
            var outcome = ComparisonWriter.Run([a, b], directory, failOnRegressionPercent: 5);
            var gate = MultiRunComparison.Build([a, b]).Gate(5);

            // Assert: each stack's threadpool, its 6 series of one run against the other's (pooled, 10 degrees of freedom);
            // mean and p99 of 2 series, 4 figures. With 10 % noise a worst bound one-sided at 1 − 0.05/4 is some 15 %
            // above the ratio, so the gate cannot clear +5 %: inconclusive (exit 7), and never a failure (exit 1).
            Assert.Equal(4, gate.Figures.Count);
            Assert.All(gate.Figures, f => Assert.Equal((RatioMethod.PooledTwoArms, 10), (f.Figure.Ratio.Test!.Method, f.Figure.Ratio.Test.DegreesOfFreedom)));
            Assert.Empty(gate.Failed);
            Assert.Equal(GateOutcome.Inconclusive, gate.Outcome);
            Assert.Equal(ComparisonWriter.ExitInconclusive, outcome.ExitCode);
            Assert.NotEqual(ComparisonWriter.ExitRegression, outcome.ExitCode);
        }
        finally
        {
            if (Directory.Exists(directory))
            {
                Directory.Delete(directory, recursive: true);
            }
        }
    }

    // The rows of every "÷ threadpool (1st)" table (its header and separator left out).
    private static IEnumerable<string> RatioTableRows(string markdown)
    {
        var lines = markdown.Split('\n');
        for (var i = 0; i < lines.Length; i++)
        {
            if (!lines[i].StartsWith("| ÷ threadpool (1st) |", StringComparison.Ordinal))
            {
                continue;
            }

            for (var j = i + 2; j < lines.Length && lines[j].StartsWith('|'); j++)
            {
                yield return lines[j];
            }
        }
    }
}
