using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>One figure of an A/A group: its value in each series, in run order, and how far they spread.</summary>
/// <param name="Limit">The largest spread still called quiet, for the figures the verdict judges; else null.</param>
/// <param name="IsCount">Whole numbers (errors), written without decimals.</param>
internal sealed record NoiseFigure(string Name, IReadOnlyList<double> Values, double? Limit, bool IsCount = false)
{
    /// <summary>Largest ÷ smallest − 1: how much the series differ with nothing changed. 0 when every value is 0; infinite when only some are.</summary>
    public double Spread
    {
        get
        {
            var (min, max) = (Values.Min(), Values.Max());
            return min > 0 ? (max / min) - 1 : max == 0 ? 0 : double.PositiveInfinity;
        }
    }

    public bool IsQuiet => Limit is not { } limit || Spread <= limit;
}

/// <summary>The series of one stack × operation × mode run several times in one run: what an A/A calibration compares.</summary>
internal sealed record NoiseGroup(string Stack, string Operation, string Mode, IReadOnlyList<string> SeriesIds, IReadOnlyList<NoiseFigure> Figures)
{
    public bool IsQuiet => Figures.All(f => f.IsQuiet);
}

/// <summary>
/// <c>harness calibrate</c>'s answer: how much one mode differs from itself on this machine, from the series'
/// summaries (warm-up left out, successful requests' latency), judged against ±5 % on the mean and ±10 % on p99.
/// A difference between two modes smaller than this is noise.
/// </summary>
internal static class NoiseFloor
{
    public const double MeanLimit = 0.05;
    public const double P99Limit = 0.10;

    public static IReadOnlyList<NoiseGroup> From(RunData run)
    {
        ArgumentNullException.ThrowIfNull(run);
        return [.. SeriesSummary.ForRun(run)
            .GroupBy(s => (s.Series.Stack, s.Series.Operation, s.Series.Mode))
            .Where(g => g.Count() >= 2)
            .Select(g =>
            {
                var runs = g.OrderBy(s => s.Series.Repetition).ToList();
                return new NoiseGroup(g.Key.Stack, g.Key.Operation, g.Key.Mode, [.. runs.Select(s => s.Series.Id)],
                [
                    new NoiseFigure("mean ms", [.. runs.Select(s => s.Latency.MeanMs)], MeanLimit),
                    new NoiseFigure("p50 ms", [.. runs.Select(s => s.Latency.P50Ms)], null),
                    new NoiseFigure("p99 ms", [.. runs.Select(s => s.Latency.P99Ms)], P99Limit),
                    new NoiseFigure("req/s", [.. runs.Select(s => s.RequestsPerSecond)], null),
                    new NoiseFigure("errors", [.. runs.Select(s => (double)s.Failures)], null, IsCount: true),
                ]);
            })];
    }
}
