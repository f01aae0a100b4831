using System.Globalization;
using System.Text;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;
using static Harness.LoadTests.Reporting.Formats.Html;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>A group's Summary table: one row per series, the client's figures, the server's, and the ratios to the baseline.</summary>
internal static class HtmlSummaryTable
{
    public static void Append(StringBuilder html, ModeComparisonGroup group, IReadOnlyDictionary<string, string> colors)
    {
        var open = group.Rows.Any(r => r.Summary.IntendedLatency is not null);
        var allRequests = group.Rows.Any(r => r.Summary.LatencyIncludesFailures);
        var runtime = group.Rows.Any(r => r.Summary.Runtime is not null);
        html.AppendLine("<div class=\"table-wrap\"><table class=\"data\"><thead>");
        html.Append(CultureInfo.InvariantCulture,
            $"<tr><th></th><th class=\"band\" colspan=\"2\">client</th><th class=\"band sep\" colspan=\"7\">{(allRequests ? "every request (format 2 run)" : "successful requests")}: service time, ms</th>"
            + $"<th class=\"band sep\" colspan=\"4\">failed requests</th>");
        if (open)
        {
            html.Append("<th class=\"band sep\" colspan=\"2\">from intended start, ms</th>");
        }

        html.AppendLine(CultureInfo.InvariantCulture, $"<th class=\"band sep\" colspan=\"{(runtime ? 8 : 6)}\">server</th><th class=\"band sep\" colspan=\"5\">÷ {E(group.Baseline)}</th></tr>");
        html.Append("<tr><th class=\"text\">mode</th><th>requests</th><th>req/s</th><th class=\"sep\">mean</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>p99.99</th><th>max</th>"
            + "<th class=\"sep\">errors</th><th>error rate</th><th>mean ms</th><th>p99 ms</th>");
        if (open)
        {
            html.Append("<th class=\"sep\">mean</th><th>p99</th>");
        }

        html.Append("<th class=\"sep\">peak threads</th><th>peak busy</th><th>peak queue</th>");
        if (runtime)
        {
            html.Append("<th title=\"the ThreadPool as the target's .NET runtime reported it (dotnet_thread_pool_thread_count)\">runtime's peak threads</th>"
                + "<th title=\"the ThreadPool's queue as the runtime reported it (dotnet_thread_pool_queue_length)\">runtime's peak queue</th>");
        }

        html.AppendLine("<th>ctx sw / req</th><th>CPU %</th><th>peak MB</th>"
            + "<th class=\"sep\">mean</th><th>p99</th><th>req/s</th><th>threads</th><th>ctx sw / req</th></tr></thead><tbody>");
        foreach (var row in group.Rows)
        {
            var s = row.Summary;
            var l = s.Latency;
            var f = s.FailureLatency is { Count: > 0 } failed ? failed : null;
            html.Append(row.ModeLabel == group.Baseline ? "<tr class=\"baseline\">" : "<tr>");
            html.Append(CultureInfo.InvariantCulture,
                $"<td class=\"text\">{Chip(row.Label, colors[row.Label])}</td><td>{Format.Integer(s.Requests)}</td><td>{Format.Number(s.RequestsPerSecond)}</td>"
                + $"<td class=\"sep\">{LatencyCell(s, l.MeanMs)}</td><td>{LatencyCell(s, l.P50Ms)}</td><td>{LatencyCell(s, l.P90Ms)}</td><td>{LatencyCell(s, l.P99Ms)}</td>"
                + $"<td>{LatencyCell(s, l.P999Ms)}</td><td>{LatencyCell(s, l.P9999Ms)}</td><td>{LatencyCell(s, l.MaxMs)}</td>"
                + $"<td class=\"sep\">{Format.Integer(s.Failures)}</td><td>{Format.Rate(s.Requests == 0 ? null : s.ErrorRate)}</td>"
                + $"<td>{Format.Number(f?.MeanMs)}</td><td>{Format.Number(f?.P99Ms)}</td>");
            if (open)
            {
                var i = s.IntendedLatency;
                html.Append(CultureInfo.InvariantCulture,
                    $"<td class=\"sep\">{(i is { Count: > 0 } ? Format.Number(i.MeanMs) : Format.Missing)}</td><td>{(i is { Count: > 0 } ? Format.Number(i.P99Ms) : Format.Missing)}</td>");
            }

            html.Append(CultureInfo.InvariantCulture,
                $"<td class=\"sep\">{Format.Integer(s.PeakThreads)}</td><td>{Format.Integer(s.PeakBusyThreads)}</td><td>{Format.Integer(s.PeakQueueLength)}</td>");
            if (runtime)
            {
                html.Append(CultureInfo.InvariantCulture, $"<td>{Format.Integer(s.Runtime?.PeakThreads)}</td><td>{Format.Integer(s.Runtime?.PeakQueueLength)}</td>");
            }

            html.Append(CultureInfo.InvariantCulture,
                $"<td>{Format.Number(s.ContextSwitchesPerRequest)}</td><td>{Format.Number(s.MeanCpuPercent)}</td><td>{Format.Integer(s.PeakWorkingSetMb)}</td>");
            html.Append(RatioCell(row, group, row.Ratios.Mean, separator: true))
                .Append(RatioCell(row, group, row.Ratios.P99))
                .Append(RatioCell(row, group, row.Ratios.RequestsPerSecond))
                .Append(RatioCell(row, group, row.Ratios.PeakThreads))
                .Append(RatioCell(row, group, row.Ratios.ContextSwitchesPerRequest));
            html.AppendLine("</tr>");
        }

        html.AppendLine("</tbody></table></div>");
    }

    /// <summary>
    /// Where a successful request's time went, for series whose replies carried the server's execution time: the
    /// server's part, and the rest (queueing before execution, transport both ways).
    /// </summary>
    public static void AppendServerTime(StringBuilder html, ModeComparisonGroup group, IReadOnlyDictionary<string, string> colors)
    {
        if (!group.Rows.Any(r => r.Summary.ServerTime is not null))
        {
            return;
        }

        html.AppendLine("<h3>Server execution and queue time</h3>");
        html.AppendLine("<p class=\"note\">Of the successful requests whose reply carried the server's own execution time: that time, and the client's latency "
            + "minus it, which is the time spent queueing before execution and in transport both ways (clamped at 0). Client mean: all successful requests.</p>");
        html.AppendLine("<div class=\"table-wrap\"><table class=\"data\"><thead><tr><th></th><th class=\"band\">client</th>"
            + "<th class=\"band sep\" colspan=\"3\">server execution, ms</th><th class=\"band sep\" colspan=\"3\">queue and transport, ms</th><th class=\"band sep\"></th></tr>"
            + "<tr><th class=\"text\">mode</th><th>mean ms</th><th class=\"sep\">mean</th><th>p50</th><th>p99</th><th class=\"sep\">mean</th><th>p50</th><th>p99</th>"
            + "<th class=\"sep\">requests timed</th></tr></thead><tbody>");
        foreach (var row in group.Rows)
        {
            var s = row.Summary;
            var (server, queue) = (s.ServerTime, s.QueueTime);
            html.AppendLine(CultureInfo.InvariantCulture,
                $"<tr><td class=\"text\">{Chip(row.Label, colors[row.Label])}</td><td>{LatencyCell(s, s.Latency.MeanMs)}</td>"
                + $"<td class=\"sep\">{Format.Number(server?.MeanMs)}</td><td>{Format.Number(server?.P50Ms)}</td><td>{Format.Number(server?.P99Ms)}</td>"
                + $"<td class=\"sep\">{Format.Number(queue?.MeanMs)}</td><td>{Format.Number(queue?.P50Ms)}</td><td>{Format.Number(queue?.P99Ms)}</td>"
                + $"<td class=\"sep\">{Format.Integer(server?.Count)}</td></tr>");
        }

        html.AppendLine("</tbody></table></div>");
    }
}
