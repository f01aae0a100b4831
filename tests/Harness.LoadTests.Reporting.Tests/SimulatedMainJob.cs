namespace Harness.LoadTests.Reporting.Tests;

/// <summary>
/// Simulated main jobs: 6 groups (2 stacks × 3 operations) of 3 modes, each mode once per round in balanced rounds.
/// A process's figures are its mode's true value × a log-normal process noise, × a round effect shared by every mode
/// of that round and group (the machine's load at that time), with the p99 twice as noisy as the mean. Mode 1 of
/// every group may be slower by a true ratio. The figures judged: mean, p99, req/s (= users ÷ mean, closed model).
/// </summary>
internal sealed class SimulatedMainJob(int Seed, double Noise)
{
    public const int Groups = 6;
    public const int Modes = 3;

    // The old report coloured 8 figures per mode: mean, p50, p90, p99, max, req/s, peak threads, ctx sw/req.
    private const int LegacyFigures = 8;

    private readonly Random _random = new(Seed);

    /// <summary>One simulated run: per comparison (group × non-baseline mode × figure), both arms' observations.</summary>
    public SimulatedRun Run(int rounds, double trueRatio)
    {
        var comparisons = new List<SimulatedComparison>();
        var legacy = new List<(IReadOnlyList<double> Value, IReadOnlyList<double> Baseline, IReadOnlyList<IReadOnlyList<double>> AllModes)>();
        for (var g = 0; g < Groups; g++)
        {
            var roundEffect = Enumerable.Range(0, rounds).Select(_ => Math.Exp(0.5 * Noise * Gaussian())).ToArray();
            // [mode][round][figure]: the figures of one process share its noise partly (a slow process is slow throughout).
            var figures = new double[Modes][][];
            for (var m = 0; m < Modes; m++)
            {
                figures[m] = new double[rounds][];
                for (var r = 0; r < rounds; r++)
                {
                    var truth = m == 1 ? trueRatio : 1;
                    var process = Noise * Gaussian();
                    figures[m][r] = new double[LegacyFigures];
                    for (var f = 0; f < LegacyFigures; f++)
                    {
                        var own = (f == 3 || f == 4 ? 2 : 1) * Noise * Gaussian();
                        var value = 100 * truth * roundEffect[r] * Math.Exp((process + own) / Math.Sqrt(2));
                        figures[m][r][f] = f == 5 ? 1_000_000 / value : value;
                    }
                }
            }

            for (var m = 1; m < Modes; m++)
            {
                foreach (var (f, lowerIsBetter) in new[] { (0, true), (3, true), (5, false) })
                {
                    comparisons.Add(new SimulatedComparison(
                        [.. Enumerable.Range(0, rounds).Select(r => new Observation(r + 1, figures[m][r][f]))],
                        [.. Enumerable.Range(0, rounds).Select(r => new Observation(r + 1, figures[0][r][f]))],
                        lowerIsBetter, Changed: m == 1 && trueRatio != 1));
                }

                for (var f = 0; f < LegacyFigures; f++)
                {
                    var (mode, ff) = (m, f);
                    legacy.Add((
                        [.. Enumerable.Range(0, rounds).Select(r => figures[mode][r][ff])],
                        [.. Enumerable.Range(0, rounds).Select(r => figures[0][r][ff])],
                        [.. Enumerable.Range(0, Modes).Select(x => (IReadOnlyList<double>)[.. Enumerable.Range(0, rounds).Select(r => figures[x][r][ff])])]));
                }
            }
        }

        return new SimulatedRun(comparisons, legacy);
    }

    /// <summary>
    /// Two runs of one build (B shifted by <paramref name="shift"/>, e.g. a slower day): 6 groups × 2 modes = 12
    /// series, each repeated, their mean and p99 gated: 24 figures, as the gate's members and as the old gate saw them.
    /// </summary>
    public (IReadOnlyList<FamilyMember> Members, IReadOnlyList<LegacyGateFigure> Legacy) GatePair(int repetitions, double shift)
    {
        var members = new List<FamilyMember>();
        var legacy = new List<LegacyGateFigure>();
        for (var g = 0; g < Groups; g++)
        {
            foreach (var f in new[] { 0, 1 })
            {
                // Per run, both series of the group (the old gate pooled the noise over them).
                var runA = Enumerable.Range(0, 2).Select(_ => Series(repetitions, 1, f)).ToList();
                var runB = Enumerable.Range(0, 2).Select(_ => Series(repetitions, 1 + shift, f)).ToList();
                for (var s = 0; s < 2; s++)
                {
                    var test = RatioTest.Of([.. runB[s].Select(v => new Observation(0, v))], [.. runA[s].Select(v => new Observation(0, v))]).Test!;
                    members.Add(new FamilyMember(test, LowerIsBetter: true));
                    legacy.Add(new LegacyGateFigure(runB[s], runA[s], [.. runA, .. runB]));
                }
            }
        }

        return (members, legacy);
    }

    private IReadOnlyList<double> Series(int repetitions, double truth, int figure) =>
        [.. Enumerable.Range(0, repetitions).Select(_ => 100 * truth * Math.Exp((figure == 1 ? 2 : 1) * Noise * Gaussian()))];

    private double Gaussian() =>
        Math.Sqrt(-2 * Math.Log(1 - _random.NextDouble())) * Math.Cos(2 * Math.PI * _random.NextDouble());
}

/// <summary>One judged comparison of a simulated run, with the truth behind it.</summary>
internal sealed record SimulatedComparison(IReadOnlyList<Observation> Value, IReadOnlyList<Observation> Baseline, bool LowerIsBetter, bool Changed);

internal sealed record SimulatedRun(
    IReadOnlyList<SimulatedComparison> Truths,
    IReadOnlyList<(IReadOnlyList<double> Value, IReadOnlyList<double> Baseline, IReadOnlyList<IReadOnlyList<double>> AllModes)> Legacy)
{
    /// <summary>The family the report judges: every comparison with a test.</summary>
    public IReadOnlyList<FamilyMember> Members() =>
        [.. Truths.Select(t => new FamilyMember(RatioTest.Of(t.Value, t.Baseline).Test!, t.LowerIsBetter))];

    /// <summary>How many of the run's 96 ratios the old report coloured.</summary>
    public int LegacyMarks() => Legacy.Count(l => LegacyVerdicts.Coloured(l.Value, l.Baseline, l.AllModes));
}

/// <summary>One gated figure as the old gate saw it: its two runs' repetitions, and every series of its group in both runs.</summary>
internal sealed record LegacyGateFigure(IReadOnlyList<double> RunB, IReadOnlyList<double> RunA, IReadOnlyList<IReadOnlyList<double>> Group)
{
    public bool Worse(double limit) => LegacyVerdicts.GateFails(RunB, RunA, Group, limit);
}

/// <summary>
/// The verdict rule the report and the gate used until 2026-11-27, kept here to measure against: a 95 % log-t
/// interval with the noise pooled over every repeated mode of the group (and, across runs, of both runs), one
/// comparison at a time; coloured when the interval excludes 1 and the point estimate is more than 5 % from 1. The
/// gate failed a figure marked worse whose interval's near end was worse than the limit.
/// </summary>
internal static class LegacyVerdicts
{
    public static bool Coloured(IReadOnlyList<double> value, IReadOnlyList<double> baseline, IReadOnlyList<IReadOnlyList<double>> allModes)
    {
        var estimate = RepetitionNoise.Pool(allModes)?.Ratio(value, baseline, 0.95);
        return estimate is not null && estimate.ExcludesOne && Math.Abs(estimate.Ratio - 1) > 0.05;
    }

    public static bool GateFails(IReadOnlyList<double> runB, IReadOnlyList<double> runA, IReadOnlyList<IReadOnlyList<double>> group, double limit)
    {
        var estimate = RepetitionNoise.Pool(group)?.Ratio(runB, runA, 0.95);
        return estimate is not null && estimate.Low > 1 && estimate.Ratio > 1.05 && (estimate.Low - 1) > limit;
    }
}
