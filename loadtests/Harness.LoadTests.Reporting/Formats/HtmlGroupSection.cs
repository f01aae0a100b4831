using System.Globalization;
using System.Text;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;
using static Harness.LoadTests.Reporting.Formats.Html;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>The section of the HTML report for one (stack, operation) group: its tables, its charts' place, its events.</summary>
internal static class HtmlGroupSection
{
    /// <param name="soak">The run's soak verdicts when it is judged as a soak, else null (no soak section).</param>
    public static void Append(
        StringBuilder html, ModeComparisonGroup group, GroupModel model, IReadOnlyDictionary<string, string> colors, int index, IReadOnlyList<ThresholdResult>? soak,
        VerdictFamilySize family)
    {
        html.AppendLine(CultureInfo.InvariantCulture, $"<section class=\"panel group\" id=\"g-{E(group.Key)}\">");
        html.AppendLine(CultureInfo.InvariantCulture, $"<h2>{E(group.Title)}</h2>");
        html.AppendLine(CultureInfo.InvariantCulture,
            $"<p class=\"lead\">{group.Rows.Count} series; ratios against <b>{E(group.Baseline)}</b>{(group.BaselineMode.Rows.Count > 1 ? " (the median of its repetitions)" : string.Empty)}. Time axes are seconds since each series started, so modes run one after another overlay.</p>");

        html.AppendLine("<h3>Summary</h3>");
        HtmlSummaryTable.Append(html, group, colors);
        if (group.HasRepetitions)
        {
            HtmlModesTable.Append(html, group, colors);
        }

        if (VerdictText.Detectable(group, family) is { } detectable)
        {
            html.AppendLine(CultureInfo.InvariantCulture, $"<p class=\"note detectable\">{E(detectable)}</p>");
        }
        html.AppendLine("<p class=\"note\">Peak threads: OS threads of the target process (process_threads). Peak busy: threads of the mode's scheduler running a work item. "
            + "Queue: work items waiting to start. ctx sw / req: growth of the target's voluntary + involuntary context switches over the series ÷ requests. "
            + "CPU %: CPU time ÷ wall time between the first and last scrape, in % of one core (100 % = one core busy). — : not measured (no server samples)."
            + (group.Rows.Any(r => r.Summary.Runtime is not null) ? " Runtime's peak threads and queue: the ThreadPool as the target's .NET runtime reported it (see Runtime ThreadPool below)." : string.Empty)
            + "</p>");

        foreach (var (title, read) in new (string, Func<SeriesSummary, IReadOnlyList<KeyValuePair<string, long>>>)[]
            { ("Successes by status", s => s.SuccessesByStatus), ("Failures by status", s => s.FailuresByStatus) })
        {
            var counted = group.Rows.Where(r => read(r.Summary).Count > 0).ToList();
            if (counted.Count > 0)
            {
                html.Append(CultureInfo.InvariantCulture, $"<p class=\"note\"><b>{title}</b> — ");
                html.AppendJoin(" · ", counted.Select(r => $"{E(r.Label)}: {E(Format.ByStatus(read(r.Summary)))}"));
                html.AppendLine("</p>");
            }
        }

        AppendKnees(html, group, colors);
        RuntimeSection.AppendHtmlGroup(html, group, colors);
        StreamSection.AppendHtmlGroup(html, group, colors);
        HtmlSummaryTable.AppendServerTime(html, group, colors);
        AppendRecoveries(html, group, colors);
        if (soak is not null)
        {
            HtmlSoakSection.Append(html, group, colors, soak);
        }

        if (FigureText.CpuMismatch(group) is { } mismatch)
        {
            html.AppendLine(CultureInfo.InvariantCulture, $"<div class=\"notice cpu-mismatch\"><b>Warning</b>: {E(mismatch)}</div>");
        }

        foreach (var row in group.Rows)
        {
            if (FigureText.ServerCoverage(row.Summary) is { } coverage)
            {
                html.AppendLine(CultureInfo.InvariantCulture, $"<div class=\"notice\"><b>{E(row.Label)}</b>: {E(coverage)}</div>");
            }
        }

        html.AppendLine("<h3>Series</h3>");
        html.AppendLine("<div class=\"table-wrap\"><table class=\"data\"><thead><tr><th class=\"text\">mode</th><th class=\"text\">series id</th><th class=\"text\">model</th>"
            + "<th class=\"text\">target</th><th>processors</th><th>CPU limit</th><th class=\"text\">parameters</th><th>started at s</th><th>warm-up s</th><th>seconds measured</th><th>server samples</th><th>ideal latency ms</th><th>ideal req/s</th><th class=\"text\">ideal measured by</th></tr></thead><tbody>");
        foreach (var row in group.Rows)
        {
            var info = row.Summary.Series;
            html.AppendLine(CultureInfo.InvariantCulture,
                $"<tr><td class=\"text\">{Chip(row.Label, colors[row.Label])}</td><td class=\"text\"><code>{E(info.Id)}</code></td><td class=\"text\">{E(info.Model)}</td>"
                + $"<td class=\"text\">{E(info.Target)}</td><td>{Format.Integer(row.Summary.Cpu.Processors)}</td><td>{E(FigureText.CpuLimit(row.Summary.Cpu))}</td>"
                + $"<td class=\"wrap\">{E(Format.Parameters(info.Parameters))}</td><td>{Format.Number(info.OffsetSeconds)}</td>"
                + $"<td>{Format.Number(info.WarmUpSeconds)}</td><td>{Format.Integer(row.Summary.Seconds)}</td><td>{Format.Integer(row.Summary.ServerSamples)}</td><td>{Format.Number(info.IdealLatencyMs)}</td><td>{Format.Number(info.IdealThroughput)}</td><td class=\"wrap\">{E(info.IdealMethod ?? Format.Missing)}</td></tr>");
        }

        html.AppendLine("</tbody></table></div>");

        html.AppendLine("<h3>Charts</h3>");
        html.AppendLine(CultureInfo.InvariantCulture, $"<div class=\"charts-host\" data-group=\"{index}\"></div>");

        if (model.Events.Count > 0)
        {
            html.AppendLine("<h3>Events in this group</h3>");
            html.AppendLine("<div class=\"table-wrap\"><table class=\"data\"><thead><tr><th>#</th><th>series s</th><th>run s</th><th class=\"text\">kind</th><th class=\"text\">series</th><th class=\"text\">message</th></tr></thead><tbody>");
            foreach (var ev in model.Events)
            {
                html.AppendLine(CultureInfo.InvariantCulture,
                    $"<tr><td>{ev.Number}</td><td>{Format.Seconds(ev.X)}</td><td>{Format.Seconds(ev.RunSeconds)}</td><td class=\"text\">{E(ev.Kind)}</td>"
                    + $"<td class=\"text\">{SeriesOf(ev)}</td><td class=\"wrap\">{E(ev.Message)}</td></tr>");
            }

            html.AppendLine("</tbody></table></div>");
        }

        html.AppendLine("</section>");
    }

    private static void AppendKnees(StringBuilder html, ModeComparisonGroup group, IReadOnlyDictionary<string, string> colors)
    {
        var ramps = group.Rows.Where(r => r.Summary.Knee.IsRamp).ToList();
        if (ramps.Count == 0)
        {
            return;
        }

        html.Append(CultureInfo.InvariantCulture,
            $"<p class=\"note knees\"><b>Knee</b> (the lowest load from which, {Knee.DefaultSustain} judged levels in a row, the mean latency is more than "
            + $"{Format.Plain(Knee.DefaultMargin * 100)} % above the ideal or the throughput more than {Format.Plain(Knee.DefaultMargin * 100)} % below the lowest level's scaled with the load) — ");
        html.AppendJoin(" · ", ramps.Select(r => $"{Chip(r.Label, colors[r.Label])} {E(Threshold.DescribeKnee(r.Summary.Knee, r.Summary.IsOpenModel))}"));
        html.AppendLine("</p>");
    }

    private static void AppendRecoveries(StringBuilder html, ModeComparisonGroup group, IReadOnlyDictionary<string, string> colors)
    {
        var rows = group.Rows.SelectMany(r => r.Summary.Recoveries.Select(c => (Row: r, Recovery: c))).ToList();
        if (rows.Count == 0)
        {
            return;
        }

        html.AppendLine("<h3>Time to recover</h3>");
        html.AppendLine(CultureInfo.InvariantCulture,
            $"<p class=\"note\">After each outage or fault window: the first second from which {Recovery.HoldSeconds} seconds in a row average at least "
            + $"{Recovery.ThroughputShare * 100:0} % of the successful req/s of the {Recovery.BaselineSeconds} seconds before the window, with a p99 at most "
            + $"{Recovery.P99Factor:0.0#} × theirs. Marked \"back\" on the time charts.</p>");
        html.AppendLine("<div class=\"table-wrap\"><table class=\"data\"><thead><tr><th class=\"text\">mode</th><th class=\"text\">window</th><th>from s</th><th>to s</th>"
            + "<th>before: req/s</th><th>before: p99 ms</th><th>back at s</th><th>time to recover s</th><th class=\"text\">outcome</th></tr></thead><tbody>");
        foreach (var (row, recovery) in rows)
        {
            var w = recovery.Window;
            html.AppendLine(CultureInfo.InvariantCulture,
                $"<tr><td class=\"text\">{Chip(row.Label, colors[row.Label])}</td><td class=\"text\">{E(w.Kind)}</td><td>{Format.Seconds(w.From)}</td>"
                + $"<td>{(w.To is { } to ? Format.Seconds(to) : Format.Missing)}</td><td>{Format.Number(recovery.BaselineRequestsPerSecond)}</td>"
                + $"<td>{Format.Number(recovery.BaselineP99Ms)}</td><td>{Format.Integer(recovery.RecoveredAtSecond)}</td>"
                + $"<td>{Format.Number(recovery.SecondsToRecover)}</td><td class=\"wrap\">{E(recovery.Outcome)}</td></tr>");
        }

        html.AppendLine("</tbody></table></div>");
    }

    private static string SeriesOf(EventModel ev) => (ev.RunWide, ev.Label) switch
    {
        (_, null) => "whole run",
        (true, { } label) => "whole run · " + Chip(label, ev.Color),
        (false, { } label) => Chip(label, ev.Color),
    };

}
