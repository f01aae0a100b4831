using System.Globalization;
using System.Text;
using Harness.LoadTests.Reporting.Analysis;
using static Harness.LoadTests.Reporting.Formats.Html;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>A group's Summary table: one row per series, the client's figures, the server's, and the ratios to the baseline.</summary>
internal static class HtmlSummaryTable
{
    public static void Append(StringBuilder html, ModeComparisonGroup group, IReadOnlyDictionary<string, string> colors)
    {
        var open = group.Rows.Any(r => r.Summary.IntendedLatency is not null);
        var allRequests = group.Rows.Any(r => r.Summary.LatencyIncludesFailures);
        html.AppendLine("<div class=\"table-wrap\"><table class=\"data\"><thead>");
        html.Append(CultureInfo.InvariantCulture,
            $"<tr><th></th><th class=\"band\" colspan=\"2\">client</th><th class=\"band sep\" colspan=\"5\">{(allRequests ? "every request (format 2 run)" : "successful requests")}: service time, ms</th>"
            + $"<th class=\"band sep\" colspan=\"4\">failed requests</th>");
        if (open)
        {
            html.Append("<th class=\"band sep\" colspan=\"2\">from intended start, ms</th>");
        }

        html.AppendLine(CultureInfo.InvariantCulture, $"<th class=\"band sep\" colspan=\"6\">server</th><th class=\"band sep\" colspan=\"5\">÷ {E(group.Baseline)}</th></tr>");
        html.Append("<tr><th class=\"text\">mode</th><th>requests</th><th>req/s</th><th class=\"sep\">mean</th><th>p50</th><th>p90</th><th>p99</th><th>max</th>"
            + "<th class=\"sep\">errors</th><th>error rate</th><th>mean ms</th><th>p99 ms</th>");
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
            var f = s.FailureLatency is { Count: > 0 } failed ? failed : null;
            html.Append(row.ModeLabel == group.Baseline ? "<tr class=\"baseline\">" : "<tr>");
            html.Append(CultureInfo.InvariantCulture,
                $"<td class=\"text\">{Chip(row.Label, colors[row.Label])}</td><td>{Format.Integer(s.Requests)}</td><td>{Format.Number(s.RequestsPerSecond)}</td>"
                + $"<td class=\"sep\">{LatencyCell(s, l.MeanMs)}</td><td>{LatencyCell(s, l.P50Ms)}</td><td>{LatencyCell(s, l.P90Ms)}</td><td>{LatencyCell(s, l.P99Ms)}</td><td>{LatencyCell(s, l.MaxMs)}</td>"
                + $"<td class=\"sep\">{Format.Integer(s.Failures)}</td><td>{Format.Rate(s.Requests == 0 ? null : s.ErrorRate)}</td>"
                + $"<td>{Format.Number(f?.MeanMs)}</td><td>{Format.Number(f?.P99Ms)}</td>");
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
    }
}
