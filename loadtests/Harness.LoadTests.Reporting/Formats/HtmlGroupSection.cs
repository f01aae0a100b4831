using System.Globalization;
using System.Text;
using Harness.LoadTests.Reporting.Analysis;
using static Harness.LoadTests.Reporting.Formats.Html;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>The section of the HTML report for one (stack, operation) group: its tables, its charts' place, its events.</summary>
internal static class HtmlGroupSection
{
    public static void Append(StringBuilder html, ModeComparisonGroup group, GroupModel model, IReadOnlyDictionary<string, string> colors, int index)
    {
        var open = group.Rows.Any(r => r.Summary.IntendedLatency is not null);
        html.AppendLine(CultureInfo.InvariantCulture, $"<section class=\"panel group\" id=\"g-{E(group.Key)}\">");
        html.AppendLine(CultureInfo.InvariantCulture, $"<h2>{E(group.Title)}</h2>");
        html.AppendLine(CultureInfo.InvariantCulture,
            $"<p class=\"lead\">{group.Rows.Count} series; ratios against <b>{E(group.Baseline)}</b>. Time axes are seconds since each series started, so modes run one after another overlay.</p>");

        html.AppendLine("<h3>Summary</h3>");
        html.AppendLine("<div class=\"table-wrap\"><table class=\"data\"><thead>");
        html.Append(CultureInfo.InvariantCulture, $"<tr><th></th><th class=\"band\" colspan=\"9\">client: service time, ms</th>");
        if (open)
        {
            html.Append("<th class=\"band sep\" colspan=\"2\">from intended start, ms</th>");
        }

        html.AppendLine(CultureInfo.InvariantCulture, $"<th class=\"band sep\" colspan=\"6\">server</th><th class=\"band sep\" colspan=\"5\">÷ {E(group.Baseline)}</th></tr>");
        html.Append("<tr><th class=\"text\">mode</th><th>requests</th><th>req/s</th><th>mean</th><th>p50</th><th>p90</th><th>p99</th><th>max</th><th>errors</th><th>error rate</th>");
        if (open)
        {
            html.Append("<th class=\"sep\">mean</th><th>p99</th>");
        }

        html.AppendLine("<th class=\"sep\">peak threads</th><th>peak busy</th><th>peak queue</th><th>ctx sw / req</th><th>CPU %</th><th>peak MB</th>"
            + "<th class=\"sep\">mean</th><th>p99</th><th>req/s</th><th>threads</th><th>ctx sw / req</th></tr></thead><tbody>");
        foreach (var row in group.Rows)
        {
            var s = row.Summary;
            var l = s.Latency;
            html.Append(row.Label == group.Baseline ? "<tr class=\"baseline\">" : "<tr>");
            html.Append(CultureInfo.InvariantCulture,
                $"<td class=\"text\">{Chip(row.Label, colors[row.Label])}</td><td>{Format.Integer(s.Requests)}</td><td>{Format.Number(s.RequestsPerSecond)}</td>"
                + $"<td>{LatencyCell(s, l.MeanMs)}</td><td>{LatencyCell(s, l.P50Ms)}</td><td>{LatencyCell(s, l.P90Ms)}</td><td>{LatencyCell(s, l.P99Ms)}</td><td>{LatencyCell(s, l.MaxMs)}</td>"
                + $"<td>{Format.Integer(s.Failures)}</td><td>{Format.Rate(s.Requests == 0 ? null : s.ErrorRate)}</td>");
            if (open)
            {
                var i = s.IntendedLatency;
                html.Append(CultureInfo.InvariantCulture,
                    $"<td class=\"sep\">{(i is { Count: > 0 } ? Format.Number(i.MeanMs) : Format.Missing)}</td><td>{(i is { Count: > 0 } ? Format.Number(i.P99Ms) : Format.Missing)}</td>");
            }

            html.Append(CultureInfo.InvariantCulture,
                $"<td class=\"sep\">{Format.Integer(s.PeakThreads)}</td><td>{Format.Integer(s.PeakBusyThreads)}</td><td>{Format.Integer(s.PeakQueueLength)}</td>"
                + $"<td>{Format.Number(s.ContextSwitchesPerRequest)}</td><td>{Format.Number(s.MeanCpuPercent)}</td><td>{Format.Integer(s.PeakWorkingSetMb)}</td>");
            html.Append(RatioCell(row, group, row.Ratios.Mean, lowerIsBetter: true, separator: true))
                .Append(RatioCell(row, group, row.Ratios.P99, lowerIsBetter: true))
                .Append(RatioCell(row, group, row.Ratios.RequestsPerSecond, lowerIsBetter: false))
                .Append(RatioCell(row, group, row.Ratios.PeakThreads, lowerIsBetter: true))
                .Append(RatioCell(row, group, row.Ratios.ContextSwitchesPerRequest, lowerIsBetter: true));
            html.AppendLine("</tr>");
        }

        html.AppendLine("</tbody></table></div>");
        html.AppendLine("<p class=\"note\">Peak threads: OS threads of the target process (process_threads). Peak busy: threads of the mode's scheduler running a work item. "
            + "Queue: work items waiting to start. ctx sw / req: growth of the target's voluntary + involuntary context switches over the series ÷ requests. "
            + "CPU %: CPU time ÷ wall time between the first and last scrape, in % of one core (100 % = one core busy). — : not measured (no server samples).</p>");

        var failing = group.Rows.Where(r => r.Summary.FailuresByStatus.Count > 0).ToList();
        if (failing.Count > 0)
        {
            html.Append("<p class=\"note\"><b>Failures by status</b> — ");
            html.AppendJoin(" · ", failing.Select(r => $"{E(r.Label)}: {E(Format.FailuresByStatus(r.Summary.FailuresByStatus))}"));
            html.AppendLine("</p>");
        }

        foreach (var row in group.Rows.Where(r => r.Summary.ServerSamples == 0))
        {
            html.AppendLine(CultureInfo.InvariantCulture,
                $"<div class=\"notice\"><b>{E(row.Label)}</b>: no server samples — the target's /metrics never answered during this series (target down or unreachable), so its server columns and charts are empty.</div>");
        }

        html.AppendLine("<h3>Series</h3>");
        html.AppendLine("<div class=\"table-wrap\"><table class=\"data\"><thead><tr><th class=\"text\">mode</th><th class=\"text\">series id</th><th class=\"text\">model</th>"
            + "<th class=\"text\">target</th><th class=\"text\">parameters</th><th>started at s</th><th>seconds</th><th>server samples</th><th>ideal latency ms</th><th>ideal req/s</th></tr></thead><tbody>");
        foreach (var row in group.Rows)
        {
            var info = row.Summary.Series;
            html.AppendLine(CultureInfo.InvariantCulture,
                $"<tr><td class=\"text\">{Chip(row.Label, colors[row.Label])}</td><td class=\"text\"><code>{E(info.Id)}</code></td><td class=\"text\">{E(info.Model)}</td>"
                + $"<td class=\"text\">{E(info.Target)}</td><td class=\"wrap\">{E(Format.Parameters(info.Parameters))}</td><td>{Format.Number(info.OffsetSeconds)}</td>"
                + $"<td>{Format.Integer(row.Summary.Seconds)}</td><td>{Format.Integer(row.Summary.ServerSamples)}</td><td>{Format.Number(info.IdealLatencyMs)}</td><td>{Format.Number(info.IdealThroughput)}</td></tr>");
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

    private static string SeriesOf(EventModel ev) => (ev.RunWide, ev.Label) switch
    {
        (_, null) => "whole run",
        (true, { } label) => "whole run · " + Chip(label, ev.Color),
        (false, { } label) => Chip(label, ev.Color),
    };

}
