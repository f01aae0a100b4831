using Harness.LoadTests.Reporting.Analysis;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>A percentile spectrum for the page: percentiles (%) and their latency (ms), ended by the maximum at 1 ÷ (1 − p) = count.</summary>
internal sealed record SpectrumLine(IReadOnlyList<double> Percentiles, IReadOnlyList<double> Ms, double MaxMs, long Count)
{
    public static SpectrumLine? Of(Recording.LatencyHistogram? histogram)
    {
        if (histogram is not { TotalCount: > 0 })
        {
            return null;
        }

        var spectrum = PercentileSpectrum.Of(histogram);
        return new SpectrumLine(
            [.. spectrum.Points.Select(p => Math.Round(p.Percentile, 6))], [.. spectrum.Points.Select(p => Math.Round(p.Ms, 3))], Math.Round(spectrum.MaxMs, 3), spectrum.Count);
    }
}

/// <summary>One series' spectra: of its service time and, in the open model, of its latency from the intended start.</summary>
internal sealed record SpectrumSeriesModel(string Label, string Color, SpectrumLine? Service, SpectrumLine? Intended);

/// <summary>One series' heatmap cells, flattened as column, bin, count, column, bin, count…</summary>
internal sealed record HeatmapSeriesModel(string Label, string Color, IReadOnlyList<long> Cells, long MaxCount);

/// <param name="EdgesMs">Bin edges in ms, one more than the bins.</param>
/// <param name="SecondsPerColumn">Series seconds per column.</param>
internal sealed record HeatmapModel(IReadOnlyList<double> EdgesMs, int SecondsPerColumn, IReadOnlyList<HeatmapSeriesModel> Series);

/// <summary>The tail of a group's latency: each series' percentile spectrum and latency heatmap (docs/report.md).</summary>
internal static class TailModel
{
    public static IReadOnlyList<SpectrumSeriesModel> Spectra(ModeComparisonGroup group, IReadOnlyDictionary<string, string> colors) =>
        [.. group.Rows.Select(r => new SpectrumSeriesModel(r.Label, colors[r.Label], SpectrumLine.Of(r.Summary.Histogram), SpectrumLine.Of(r.Summary.IntendedHistogram)))];

    public static HeatmapModel Heatmap(Recording.RunData run, ModeComparisonGroup group, IReadOnlyDictionary<string, string> colors)
    {
        var heatmap = LatencyHeatmap.Of([.. group.Rows.Select(r => SeriesSummary.TimelineOf(run, r.Summary.Series.Id))]);
        var series = group.Rows.Select((r, i) => new HeatmapSeriesModel(
            r.Label,
            colors[r.Label],
            [.. heatmap.Cells[i].SelectMany(c => new[] { c.Column, c.Bin, c.Count })],
            heatmap.Cells[i].Select(c => c.Count).DefaultIfEmpty(0).Max()));
        return new HeatmapModel(
            [.. Enumerable.Range(0, heatmap.Bins + 1).Select(i => Math.Round(heatmap.EdgeMs(i), 4))], heatmap.SecondsPerColumn, [.. series]);
    }
}
