using System.Globalization;
using System.Text;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;
using static Harness.LoadTests.Reporting.Formats.Html;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>A group's soak section: each series' first and last windows, its trends, and the verdict per criterion in words.</summary>
internal static class HtmlSoakSection
{
    public static void Append(StringBuilder html, ModeComparisonGroup group, IReadOnlyDictionary<string, string> colors, IReadOnlyList<ThresholdResult> soakResults)
    {
        var share = Format.Plain(group.Rows[0].Summary.Soak.WindowFraction * 100) + " %";
        html.AppendLine("<h3>Soak</h3>");
        html.AppendLine(CultureInfo.InvariantCulture,
            $"<p class=\"note\">After the warm-up, the first and last {share} of each series compared (shaded on the soak charts), and least-squares trends over "
            + $"the whole: p99 over consecutive windows of the same length, successful req/s, working set and OS threads per second. Memory growth is the fitted "
            + $"slope per hour ÷ the first window's working set.</p>");
        html.AppendLine("<div class=\"table-wrap\"><table class=\"data\"><thead>"
            + "<tr><th></th><th class=\"band\" colspan=\"3\">seconds</th><th class=\"band sep\" colspan=\"3\">p99 ms</th><th class=\"band sep\" colspan=\"3\">successful req/s</th>"
            + "<th class=\"band sep\" colspan=\"3\">working set</th><th class=\"band sep\" colspan=\"2\">OS threads</th><th class=\"band sep\"></th></tr>"
            + "<tr><th class=\"text\">mode</th><th>measured</th><th>first window</th><th>last window</th><th class=\"sep\">first</th><th>last</th><th>drift</th>"
            + "<th class=\"sep\">first</th><th>last</th><th>drift</th><th class=\"sep\">first MB</th><th>MB/h</th><th>%/h</th><th class=\"sep\">first</th><th>per hour</th>"
            + "<th class=\"sep\">error rate</th></tr></thead><tbody>");
        foreach (var row in group.Rows)
        {
            var t = row.Summary.Soak;
            html.AppendLine(CultureInfo.InvariantCulture,
                $"<tr><td class=\"text\">{Chip(row.Label, colors[row.Label])}</td><td>{Format.Integer(t.SpanTo - t.SpanFrom)}</td><td>{Window(t.First)}</td><td>{Window(t.Last)}</td>"
                + $"<td class=\"sep\">{Format.Number(t.First?.P99Ms)}</td><td>{Format.Number(t.Last?.P99Ms)}</td><td>{Format.Change(t.P99DriftPercent)}</td>"
                + $"<td class=\"sep\">{Format.Number(t.First?.SuccessesPerSecond)}</td><td>{Format.Number(t.Last?.SuccessesPerSecond)}</td><td>{Format.Change(t.RpsDriftPercent)}</td>"
                + $"<td class=\"sep\">{Format.Number(t.First?.WorkingSetMb)}</td><td>{Format.Number(t.MemoryTrend?.Slope * 3600)}</td><td>{Format.Number(t.MemoryGrowthPercentPerHour)}</td>"
                + $"<td class=\"sep\">{Format.Number(t.First?.Threads)}</td><td>{Format.Number(t.ThreadsGrowthPerHour)}</td><td class=\"sep\">{Format.Rate(t.ErrorRate)}</td></tr>");
        }

        html.AppendLine("</tbody></table></div>");

        var verdicts = Verdicts(group, soakResults);
        if (verdicts.Count == 0)
        {
            return;
        }

        html.AppendLine("<ul class=\"verdicts\">");
        foreach (var (label, result) in verdicts)
        {
            html.AppendLine(CultureInfo.InvariantCulture,
                $"<li>{Chip(label, colors[label])} {E(result.Message)}{(result.Threshold.IsDefault ? " <span class=\"note\">(soak default)</span>" : string.Empty)}: "
                + $"<b class=\"{result.CssClass}\">{result.Label}</b></li>");
        }

        html.AppendLine("</ul>");
    }

    /// <summary>The soak results of the group's series (a repeated mode's, once), with the label of their row or mode.</summary>
    public static List<(string Label, ThresholdResult Result)> Verdicts(ModeComparisonGroup group, IReadOnlyList<ThresholdResult> soakResults)
    {
        var verdicts = new List<(string, ThresholdResult)>();
        foreach (var mode in group.Modes)
        {
            var ids = mode.IsRepeated
                ? [ModeComparison.ModeIdOf(mode.Rows[0].Summary.Series)]
                : mode.Rows.Select(r => r.Summary.Series.Id).ToHashSet(StringComparer.Ordinal);
            verdicts.AddRange(soakResults.Where(r => r.SeriesId is { } id && ids.Contains(id)).Select(r => (mode.Label, r)));
        }

        return verdicts;
    }

    private static string Window(SoakWindow? window) =>
        window is null ? Format.Missing : $"{Format.Seconds(window.From)}–{Format.Seconds(window.To)}";
}
