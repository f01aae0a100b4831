using System.Globalization;
using System.Text;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;
using static Harness.LoadTests.Reporting.Formats.Html;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>The report's "At a glance" table: one row per mode of every group (a repeated mode's medians on one row).</summary>
internal static class HtmlGlance
{
    public static void Append(
        StringBuilder html, IReadOnlyList<ModeComparisonGroup> groups, IReadOnlyDictionary<string, string> colors, IReadOnlyList<ThresholdResult>? thresholds,
        RunAnalysis analysis)
    {
        var settlement = analysis.Settlement;
        html.AppendLine("<section class=\"panel\" id=\"glance\">");
        html.AppendLine("<h2>At a glance</h2>");
        html.AppendLine("<p class=\"lead\">Every mode of the run. Latency is the service time of the successful requests of the series (merged histograms); "
            + "failed requests have their own count, rate and latency in each group's summary; "
            + "req/s is requests ÷ active seconds; \"÷ ideal\" is the mean against the series' best possible latency (the stub's delay, one Compute call alone); "
            + "ratios compare each mode with its group's baseline (threadpool where present). A repeated mode (\"N runs\") shows the median of its repetitions. "
            + (settlement is null ? string.Empty : "This run was repeated until settled: its ratios of mean, p99 and req/s are the settlement's intervals. ")
            + "A ratio between modes run once is \"single run\" and never coloured.</p>");
        html.AppendLine(CultureInfo.InvariantCulture, $"<p class=\"lead\" id=\"verdict-rule\">{E(VerdictText.Family(analysis.Family))}</p>");
        if (VerdictText.Design(analysis) is { } design)
        {
            html.AppendLine(CultureInfo.InvariantCulture, $"<div class=\"notice\" id=\"design\">{E(design)}</div>");
        }
        html.AppendLine(CultureInfo.InvariantCulture, $"<p class=\"lead\" id=\"noise-floor\">{E(NoiseFloorSentence.Of(analysis.NoiseFloor, analysis.Family))}</p>");
        if (settlement is not null)
        {
            html.AppendLine(CultureInfo.InvariantCulture, $"<div class=\"notice\" id=\"settlement\"><p>{E(SettlementText.Headline(settlement))}</p><ul>");
            foreach (var line in SettlementText.Lines(settlement))
            {
                html.AppendLine(CultureInfo.InvariantCulture, $"<li>{E(line)}</li>");
            }

            html.AppendLine("</ul></div>");
        }

        if (thresholds is { Count: > 0 })
        {
            html.AppendLine(
                thresholds.Any(t => t.Failed) ? $"<div class=\"notice error\"><a href=\"#thresholds\">{E(ThresholdText.Tally(thresholds))}</a></div>"
                : thresholds.All(t => t.Passed) ? $"<div class=\"notice ok\"><a href=\"#thresholds\">All {thresholds.Count} threshold checks passed.</a></div>"
                : $"<div class=\"notice\"><a href=\"#thresholds\">{E(ThresholdText.Tally(thresholds))}</a> "
                    + "A check not judged does not fail the run: its series was too short for it to say anything.</div>");
        }

        RuntimeSection.AppendHtmlGlance(html, analysis.Summaries);
        html.AppendLine("<div class=\"table-wrap\"><table class=\"data\">");
        html.AppendLine("<thead><tr><th class=\"text\">stack · operation</th><th class=\"text\">mode</th><th>peak users</th><th>requests</th><th>req/s</th>"
            + "<th>mean ms</th><th>p99 ms</th><th>p99.9 ms</th><th>p99.99 ms</th><th>mean ÷ ideal</th><th>errors</th><th>peak threads</th><th>peak busy</th><th>ctx sw / req</th><th>peak MB</th>"
            + "<th class=\"sep\">mean vs base</th><th>p99 vs base</th><th>req/s vs base</th><th>ctx/req vs base</th></tr></thead><tbody>");
        foreach (var group in groups)
        {
            var first = true;
            foreach (var mode in group.Modes)
            {
                html.Append(first ? "<tr class=\"group-start\">" : "<tr>");
                html.Append(first ? $"<td class=\"text\"><a href=\"#g-{E(group.Key)}\">{E(group.Title)}</a></td>" : "<td></td>");
                if (mode.IsRepeated)
                {
                    AppendMedians(html, mode, colors);
                }
                else
                {
                    AppendSeries(html, mode.Rows[0], colors);
                }

                html.Append(ModeRatioCell(Shown(group, mode, ModeFigure.Mean, settlement), separator: true))
                    .Append(ModeRatioCell(Shown(group, mode, ModeFigure.P99, settlement)))
                    .Append(ModeRatioCell(Shown(group, mode, ModeFigure.RequestsPerSecond, settlement)))
                    .Append(ModeRatioCell(mode.RatioOf(ModeFigure.ContextSwitchesPerRequest)));
                html.AppendLine("</tr>");
                first = false;
            }
        }

        html.AppendLine("</tbody></table></div>");
        html.AppendLine("</section>");
    }

    /// <summary>
    /// The ratio the glance shows: in a run repeated until settled, the settlement's interval for the figures it
    /// settles (what the run stopped on), its verdict read against the same ±5 % band; else the report's family verdict.
    /// </summary>
    private static ModeRatio Shown(ModeComparisonGroup group, ModeSummary mode, ModeFigure figure, RepetitionSettlement? settlement)
    {
        var ratio = mode.RatioOf(figure);
        if (settlement is null || mode.Label == group.Baseline || !RepetitionSettlement.Figures.Contains(figure))
        {
            return ratio;
        }

        var settled = settlement.Comparisons.FirstOrDefault(c => c.Title == group.Title && c.Figure == figure
            && (c.Label == $"{mode.Label} ÷ {group.Baseline}" || c.Label == $"{mode.Mode} ÷ {group.BaselineMode.Mode}"));
        if (settled?.Result is not { } result)
        {
            return ratio with { Verdict = ratio.Test is null ? ratio.Verdict : RatioVerdict.Inconclusive };
        }

        var e = result.Estimate;
        var verdict = result.IsSettled ? VerdictFamily.VerdictOf(e, ModeRatio.Tolerance, ModeFigures.LowerIsBetter(figure)) : RatioVerdict.Inconclusive;
        return new ModeRatio(e.Ratio, e.Low, e.High, true, verdict) { Test = ratio.Test, Level = e.Confidence };
    }

    private static void AppendSeries(StringBuilder html, ModeRow row, IReadOnlyDictionary<string, string> colors)
    {
        var s = row.Summary;
        var ideal = s.Series.IdealLatencyMs is > 0 && s.Latency.Count > 0 ? s.Latency.MeanMs / s.Series.IdealLatencyMs : null;
        html.Append(CultureInfo.InvariantCulture,
            $"<td class=\"text\">{Chip(row.Label, colors[row.Label])}</td><td>{Format.Integer(s.PeakUsers)}</td><td>{Format.Integer(s.Requests)}</td>"
            + $"<td>{Format.Number(s.RequestsPerSecond)}</td><td>{LatencyCell(s, s.Latency.MeanMs)}</td><td>{LatencyCell(s, s.Latency.P99Ms)}</td>"
            + $"<td>{LatencyCell(s, s.Latency.P999Ms)}</td><td>{LatencyCell(s, s.Latency.P9999Ms)}</td>"
            + $"<td>{Format.Ratio(ideal)}</td><td>{ErrorsCell(s)}</td><td>{Format.Integer(s.PeakThreads)}</td><td>{Format.Integer(s.PeakBusyThreads)}</td>"
            + $"<td>{Format.Number(s.ContextSwitchesPerRequest)}</td><td>{Format.Integer(s.PeakWorkingSetMb)}</td>");
    }

    // A repeated mode: the median of each figure over its repetitions.
    private static void AppendMedians(StringBuilder html, ModeSummary mode, IReadOnlyDictionary<string, string> colors)
    {
        double? Median(Func<SeriesSummary, double?> read) => Spread.Of(mode.Rows.Select(r => read(r.Summary)).OfType<double>())?.Median;
        var mean = mode.Of(ModeFigure.Mean)?.Median;
        var idealMs = mode.Rows[0].Summary.Series.IdealLatencyMs;
        var errors = mode.Of(ModeFigure.ErrorRate)?.Median;
        html.Append(CultureInfo.InvariantCulture,
            $"<td class=\"text\">{Chip($"{mode.Label} ({mode.Rows.Count} runs)", colors[mode.Label])}</td><td>{Format.Integer(Median(s => s.PeakUsers))}</td>"
            + $"<td>{Format.Integer(Median(s => s.Requests))}</td><td>{Format.Number(mode.Of(ModeFigure.RequestsPerSecond)?.Median)}</td>"
            + $"<td>{Format.Number(mean)}</td><td>{Format.Number(mode.Of(ModeFigure.P99)?.Median)}</td>"
            + $"<td>{Format.Number(mode.Of(ModeFigure.P999)?.Median)}</td><td>{Format.Number(mode.Of(ModeFigure.P9999)?.Median)}</td>"
            + $"<td>{Format.Ratio(idealMs is > 0 ? mean / idealMs : null)}</td><td>{(errors == 0 ? "0" : Format.Rate(errors))}</td>"
            + $"<td>{Format.Integer(mode.Of(ModeFigure.PeakThreads)?.Median)}</td><td>{Format.Integer(Median(s => s.PeakBusyThreads))}</td>"
            + $"<td>{Format.Number(mode.Of(ModeFigure.ContextSwitchesPerRequest)?.Median)}</td><td>{Format.Integer(Median(s => s.PeakWorkingSetMb))}</td>");
    }
}
