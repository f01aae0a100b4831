using Harness.LoadTests.Reporting.Analysis;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>
/// What the soak charts of one series draw (docs/report.md, "Soak"): its two windows, shaded; the p99 of each
/// consecutive window; and each trend line by its two ends over the measured span. X in series seconds.
/// </summary>
internal sealed record SoakSeriesModel(
    string Label,
    string Color,
    double WindowPercent,
    double[]? First,
    double[]? Last,
    IReadOnlyList<SoakPoint> P99Windows,
    double[]? P99Trend,
    double[]? RpsTrend,
    double[]? MemoryTrend,
    double[]? ThreadsTrend)
{
    public static IReadOnlyList<SoakSeriesModel> For(ModeComparisonGroup group, IReadOnlyDictionary<string, string> colors) =>
        [.. group.Rows.Select(r => Of(r.Label, colors[r.Label], r.Summary.Soak))];

    private static SoakSeriesModel Of(string label, string color, SoakTrend soak)
    {
        double[]? Line(LinearFit? fit, int from) =>
            fit is null ? null : [from, Round(fit.At(from)), soak.SpanTo - 1, Round(fit.At(soak.SpanTo - 1))];
        return new SoakSeriesModel(
            label,
            color,
            Math.Round(soak.WindowFraction * 100, 3),
            soak.First is { } first ? [first.From, first.To] : null,
            soak.Last is { } last ? [last.From, last.To] : null,
            [.. soak.P99Windows.Select(p => new SoakPoint(p.X, Round(p.Y)))],
            Line(soak.P99Trend, soak.SpanFrom),
            Line(soak.RpsTrend, soak.SpanFrom),
            Line(soak.MemoryTrend, soak.GrowthFrom),
            Line(soak.ThreadsTrend, soak.GrowthFrom));
    }

    private static double Round(double value) => Math.Round(value, 3);
}
