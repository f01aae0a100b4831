using System.Globalization;
using System.Net;
using System.Reflection;
using System.Text;
using System.Text.Json;
using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting;

/// <summary>
/// The comparison report as one self-contained HTML page: tables rendered here, charts drawn in the browser by the
/// inlined Chart.js from the inline JSON (<see cref="ReportModel"/>). Nothing is fetched when the page opens.
/// </summary>
public static class HtmlReport
{
    /// <summary>The chart library inlined into every report, as recorded in web/package.json.</summary>
    public const string ChartLibrary = "Chart.js 4.6.1 (MIT)";

    // The default encoder escapes <, >, & and quotes, so the JSON cannot close its <script> element.
    private static readonly JsonSerializerOptions JsonOptions = new() { PropertyNamingPolicy = JsonNamingPolicy.CamelCase };

    private static readonly Lazy<string> ChartScript = new(() => ScriptSafe(StripSourceMap(Resource("chart.js"))));
    private static readonly Lazy<string> PageScript = new(() => ScriptSafe(Resource("report.js")));
    private static readonly Lazy<string> StyleSheet = new(() => Resource("report.css"));

    public static string Render(RunData run, IReadOnlyList<ThresholdResult>? thresholds = null)
    {
        ArgumentNullException.ThrowIfNull(run);
        var summaries = SeriesSummary.ForRun(run);
        var groups = ModeComparison.Build(run.Manifest, summaries);
        var model = ReportModel.Build(run, groups);
        var colors = ReportModel.ColorsFor(run, groups);
        var m = run.Manifest;

        var html = new StringBuilder(512 * 1024);
        html.AppendLine("<!DOCTYPE html>");
        html.AppendLine("<html lang=\"en\">");
        html.AppendLine("<head>");
        html.AppendLine("<meta charset=\"utf-8\">");
        html.AppendLine("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
        html.AppendLine(CultureInfo.InvariantCulture, $"<title>Harness report · {E(m.RunId)} · {E(m.Profile)}</title>");
        html.Append("<style>").Append(StyleSheet.Value).AppendLine("</style>");
        html.AppendLine("</head>");
        html.AppendLine("<body>");

        AppendHeader(html, m, colors);
        AppendNav(html, groups, thresholds, run.Events.Count > 0);
        html.AppendLine("<main>");
        html.AppendLine("<noscript><div class=\"notice\">The charts need JavaScript; the tables below do not.</div></noscript>");
        html.AppendLine("<div id=\"report-errors\"></div>");
        AppendGlance(html, groups, colors, thresholds);
        if (thresholds is { Count: > 0 })
        {
            AppendThresholds(html, thresholds);
        }

        for (var i = 0; i < groups.Count; i++)
        {
            AppendGroup(html, groups[i], model.Groups[i], colors, i);
        }

        AppendEventsAndSettings(html, run);
        html.AppendLine("</main>");
        html.AppendLine(CultureInfo.InvariantCulture,
            $"<footer>Harness {E(m.Machine.HarnessVersion)} · run {E(m.RunId)} · charts by {E(ChartLibrary)}, inlined: this file opens offline.</footer>");

        html.Append("<script type=\"application/json\" id=\"report-data\">")
            .Append(JsonSerializer.Serialize(model, JsonOptions))
            .AppendLine("</script>");
        html.Append("<script>").Append(ChartScript.Value).AppendLine("</script>");
        html.Append("<script>").Append(PageScript.Value).AppendLine("</script>");
        html.AppendLine("</body>");
        html.AppendLine("</html>");
        return html.ToString();
    }

    private static void AppendHeader(StringBuilder html, RunManifest m, IReadOnlyDictionary<string, string> colors)
    {
        html.AppendLine("<header class=\"top\">");
        html.AppendLine("<div class=\"brand\">Harness · load test report</div>");
        html.AppendLine(CultureInfo.InvariantCulture, $"<h1>Run {E(m.RunId)}</h1>");
        html.AppendLine(CultureInfo.InvariantCulture,
            $"<div class=\"meta\">profile <b>{E(m.Profile)}</b> · time scale <b>{Format.Plain(m.TimeScale)}</b> · started <b>{E(m.StartedAt.ToString("yyyy-MM-dd HH:mm:ss zzz", CultureInfo.InvariantCulture))}</b> · "
            + $"{m.Machine.ProcessorCount} cores · {E(m.Machine.OperatingSystem)} · .NET {E(m.Machine.RuntimeVersion)} · {m.Series.Count} series</div>");
        html.Append("<div class=\"modes\">");
        foreach (var (label, color) in colors)
        {
            html.Append(Chip(label, color));
        }

        html.AppendLine("</div>");
        html.AppendLine("</header>");
    }

    private static void AppendNav(StringBuilder html, IReadOnlyList<ModeComparisonGroup> groups, IReadOnlyList<ThresholdResult>? thresholds, bool hasEvents)
    {
        html.Append("<nav class=\"toc\"><a href=\"#glance\">At a glance</a>");
        if (thresholds is { Count: > 0 })
        {
            var failed = thresholds.Count(t => !t.Passed);
            html.Append(CultureInfo.InvariantCulture, $"<a href=\"#thresholds\">Thresholds ({(failed == 0 ? "all pass" : $"{failed} failed")})</a>");
        }

        foreach (var group in groups)
        {
            html.Append(CultureInfo.InvariantCulture, $"<a href=\"#g-{E(group.Key)}\">{E(group.Title)}</a>");
        }

        if (hasEvents)
        {
            html.Append("<a href=\"#events\">Events</a>");
        }

        html.AppendLine("<a href=\"#settings\">Settings</a></nav>");
    }

    private static void AppendGlance(
        StringBuilder html, IReadOnlyList<ModeComparisonGroup> groups, IReadOnlyDictionary<string, string> colors, IReadOnlyList<ThresholdResult>? thresholds)
    {
        html.AppendLine("<section class=\"panel\" id=\"glance\">");
        html.AppendLine("<h2>At a glance</h2>");
        html.AppendLine("<p class=\"lead\">Every series of the run. Latency is the service time of all requests of the series (merged histograms); "
            + "req/s is requests ÷ active seconds; \"÷ ideal\" is the mean against the series' best possible latency (the stub's delay, one Compute call alone); "
            + "ratios compare each mode with its group's baseline (threadpool where present): green is better, red worse by more than 5 %.</p>");
        if (thresholds is { Count: > 0 })
        {
            var failed = thresholds.Count(t => !t.Passed);
            html.AppendLine(failed == 0
                ? $"<div class=\"notice ok\"><a href=\"#thresholds\">All {thresholds.Count} threshold checks passed.</a></div>"
                : $"<div class=\"notice error\"><a href=\"#thresholds\">{failed} of {thresholds.Count} threshold checks failed.</a></div>");
        }

        html.AppendLine("<div class=\"table-wrap\"><table class=\"data\">");
        html.AppendLine("<thead><tr><th class=\"text\">stack · operation</th><th class=\"text\">mode</th><th>peak users</th><th>requests</th><th>req/s</th>"
            + "<th>mean ms</th><th>p99 ms</th><th>mean ÷ ideal</th><th>errors</th><th>peak threads</th><th>peak busy</th><th>ctx sw / req</th><th>peak MB</th>"
            + "<th class=\"sep\">mean vs base</th><th>p99 vs base</th><th>req/s vs base</th><th>ctx/req vs base</th></tr></thead><tbody>");
        foreach (var group in groups)
        {
            var first = true;
            foreach (var row in group.Rows)
            {
                var s = row.Summary;
                var ideal = s.Series.IdealLatencyMs is > 0 && s.Latency.Count > 0 ? s.Latency.MeanMs / s.Series.IdealLatencyMs : null;
                html.Append(first ? "<tr class=\"group-start\">" : "<tr>");
                html.Append(first ? $"<td class=\"text\"><a href=\"#g-{E(group.Key)}\">{E(group.Title)}</a></td>" : "<td></td>");
                html.Append(CultureInfo.InvariantCulture,
                    $"<td class=\"text\">{Chip(row.Label, colors[row.Label])}</td><td>{Format.Integer(s.PeakUsers)}</td><td>{Format.Integer(s.Requests)}</td>"
                    + $"<td>{Format.Number(s.RequestsPerSecond)}</td><td>{LatencyCell(s, s.Latency.MeanMs)}</td><td>{LatencyCell(s, s.Latency.P99Ms)}</td>"
                    + $"<td>{Format.Ratio(ideal)}</td><td>{ErrorsCell(s)}</td><td>{Format.Integer(s.PeakThreads)}</td><td>{Format.Integer(s.PeakBusyThreads)}</td>"
                    + $"<td>{Format.Number(s.ContextSwitchesPerRequest)}</td><td>{Format.Integer(s.PeakWorkingSetMb)}</td>");
                html.Append(RatioCell(row, group, row.Ratios.Mean, lowerIsBetter: true, separator: true))
                    .Append(RatioCell(row, group, row.Ratios.P99, lowerIsBetter: true))
                    .Append(RatioCell(row, group, row.Ratios.RequestsPerSecond, lowerIsBetter: false))
                    .Append(RatioCell(row, group, row.Ratios.ContextSwitchesPerRequest, lowerIsBetter: true));
                html.AppendLine("</tr>");
                first = false;
            }
        }

        html.AppendLine("</tbody></table></div>");
        html.AppendLine("</section>");
    }

    private static void AppendThresholds(StringBuilder html, IReadOnlyList<ThresholdResult> thresholds)
    {
        html.AppendLine("<section class=\"panel\" id=\"thresholds\">");
        html.AppendLine("<h2>Thresholds</h2>");
        html.AppendLine("<p class=\"lead\">Each threshold checked on every series its scope matches. A scope that matches nothing, or a figure that was not measured, fails.</p>");
        html.AppendLine("<div class=\"table-wrap\"><table class=\"data\"><thead><tr><th class=\"text\">result</th><th class=\"text\">threshold</th><th class=\"text\">series</th><th>actual</th><th class=\"text\">detail</th></tr></thead><tbody>");
        foreach (var t in thresholds)
        {
            html.AppendLine(CultureInfo.InvariantCulture,
                $"<tr><td class=\"text {(t.Passed ? "pass" : "fail")}\">{(t.Passed ? "pass" : "FAIL")}</td><td class=\"text\"><code>{E(t.Threshold.Expression)}</code></td>"
                + $"<td class=\"text\">{E(t.SeriesId ?? Format.Missing)}</td><td>{E(t.Actual is { } a ? t.Threshold.FormatValue(a) : Format.Missing)}</td><td class=\"wrap\">{E(t.Message)}</td></tr>");
        }

        html.AppendLine("</tbody></table></div>");
        html.AppendLine("</section>");
    }

    private static void AppendGroup(StringBuilder html, ModeComparisonGroup group, GroupModel model, IReadOnlyDictionary<string, string> colors, int index)
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

    private static void AppendEventsAndSettings(StringBuilder html, RunData run)
    {
        var m = run.Manifest;
        if (run.Events.Count > 0)
        {
            html.AppendLine("<section class=\"panel\" id=\"events\">");
            html.AppendLine("<h2>Events</h2>");
            html.AppendLine("<p class=\"lead\">Everything the runner recorded, in seconds since the run started.</p>");
            html.AppendLine("<div class=\"table-wrap\"><table class=\"data\"><thead><tr><th>run s</th><th class=\"text\">kind</th><th class=\"text\">series</th><th class=\"text\">message</th></tr></thead><tbody>");
            foreach (var ev in run.Events.OrderBy(e => e.AtSeconds))
            {
                html.AppendLine(CultureInfo.InvariantCulture,
                    $"<tr><td>{Format.Seconds(ev.AtSeconds)}</td><td class=\"text\">{E(ev.Kind)}</td><td class=\"text\">{E(ev.SeriesId ?? "whole run")}</td><td class=\"wrap\">{E(ev.Message)}</td></tr>");
            }

            html.AppendLine("</tbody></table></div>");
            html.AppendLine("</section>");
        }

        html.AppendLine("<section class=\"panel\" id=\"settings\">");
        html.AppendLine("<h2>Settings</h2>");
        html.AppendLine("<dl class=\"settings\">");
        void Item(string name, string valueHtml) => html.AppendLine(CultureInfo.InvariantCulture, $"<dt>{E(name)}</dt><dd>{valueHtml}</dd>");
        Item("run id", $"<code>{E(m.RunId)}</code>");
        Item("started", E(m.StartedAt.ToString("O", CultureInfo.InvariantCulture)));
        Item("profile", E(m.Profile));
        Item("time scale", E(Format.Plain(m.TimeScale)) + " (every duration of the profile multiplied by this)");
        Item("modes", string.Join(", ", m.Modes.Select(E)));
        Item("machine", E($"{m.Machine.ProcessorCount} cores · {m.Machine.OperatingSystem} · .NET {m.Machine.RuntimeVersion}"));
        Item("harness version", E(m.Machine.HarnessVersion));
        Item("command line", $"<code>{E(m.CommandLine)}</code>");
        Item("agents", m.Agents.Count == 0 ? Format.Missing : string.Join(", ", m.Agents.Select(a => $"<code>{E(a)}</code>")));
        Item("raw format version", E(m.FormatVersion.ToString(CultureInfo.InvariantCulture)));
        html.AppendLine("</dl>");
        html.AppendLine("<h3>Profile definition</h3>");
        html.AppendLine(CultureInfo.InvariantCulture, $"<pre>{E(PrettyJson(m.ProfileDefinition))}</pre>");
        html.AppendLine("</section>");
    }

    private static string SeriesOf(EventModel ev) => (ev.RunWide, ev.Label) switch
    {
        (_, null) => "whole run",
        (true, { } label) => "whole run · " + Chip(label, ev.Color),
        (false, { } label) => Chip(label, ev.Color),
    };

    private static string LatencyCell(SeriesSummary s, double value) => s.Latency.Count == 0 ? Format.Missing : Format.Number(value);

    private static string ErrorsCell(SeriesSummary s) =>
        s.Requests == 0 ? Format.Missing : s.Failures == 0 ? "0" : $"{Format.Integer(s.Failures)} ({Format.Rate(s.ErrorRate)})";

    private static string RatioCell(ModeRow row, ModeComparisonGroup group, double? ratio, bool lowerIsBetter, bool separator = false)
    {
        var classes = new List<string>();
        if (separator)
        {
            classes.Add("sep");
        }

        if (row.Label != group.Baseline && ratio is { } r)
        {
            var better = lowerIsBetter ? r < 0.95 : r > 1.05;
            var worse = lowerIsBetter ? r > 1.05 : r < 0.95;
            if (better)
            {
                classes.Add("better");
            }
            else if (worse)
            {
                classes.Add("worse");
            }
        }

        var text = row.Label == group.Baseline ? "base" : Format.Ratio(ratio);
        return classes.Count == 0 ? $"<td>{text}</td>" : $"<td class=\"{string.Join(' ', classes)}\">{text}</td>";
    }

    private static string Chip(string label, string color) => $"<span class=\"chip\"><i style=\"background:{E(color)}\"></i>{E(label)}</span>";

    private static string PrettyJson(string json)
    {
        if (string.IsNullOrWhiteSpace(json))
        {
            return Format.Missing;
        }

        try
        {
            using var document = JsonDocument.Parse(json);
            return JsonSerializer.Serialize(document.RootElement, new JsonSerializerOptions { WriteIndented = true });
        }
        catch (JsonException)
        {
            return json;
        }
    }

    private static string E(string text) => WebUtility.HtmlEncode(text);

    private static string Resource(string name)
    {
        var assembly = typeof(HtmlReport).Assembly;
        using var stream = assembly.GetManifestResourceStream($"Harness.LoadTests.Reporting.{name}")
            ?? throw new InvalidOperationException($"The report resource '{name}' is missing from {assembly.GetName().Name}; rebuild the project (it runs npm ci).");
        using var reader = new StreamReader(stream, Encoding.UTF8);
        return reader.ReadToEnd();
    }

    // The map file is not shipped, and a browser's developer tools would try to fetch it.
    private static string StripSourceMap(string script) =>
        string.Join('\n', script.Split('\n').Where(line => !line.StartsWith("//# sourceMappingURL=", StringComparison.Ordinal)));

    // "</script" inside inline code would end the element early; "<\/" means the same in JavaScript.
    private static string ScriptSafe(string script) => script.Replace("</script", "<\\/script", StringComparison.OrdinalIgnoreCase);
}
