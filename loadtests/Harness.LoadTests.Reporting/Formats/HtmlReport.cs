using System.Globalization;
using System.Text;
using System.Text.Json;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;
using static Harness.LoadTests.Reporting.Formats.Html;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>
/// The comparison report as one self-contained HTML page: tables rendered here, charts drawn in the browser by the
/// inlined Chart.js from the inline JSON (<see cref="ReportModel"/>). Nothing is fetched when the page opens.
/// </summary>
internal static class HtmlReport
{
    // web/charts/: the shared helpers first, main (which draws every group) last.
    private static readonly Lazy<string> PageScript = new(() => HtmlPage.ChartScripts("base.js", "markers.js", "classic.js", "client.js", "server.js", "soak.js", "tail.js", "main.js"));

    /// <param name="analysis">The run analysed; its reader's warnings are shown in the page's header.</param>
    public static string Render(RunAnalysis analysis)
    {
        ArgumentNullException.ThrowIfNull(analysis);
        var (run, groups, thresholds, soak) = (analysis.Run, analysis.Groups, analysis.Thresholds, analysis.Soak);
        var colors = ReportModel.ColorsFor(run, groups);
        var model = ReportModel.Build(analysis, colors);
        var m = run.Manifest;

        var html = new StringBuilder(512 * 1024);
        HtmlPage.AppendHead(html, $"Harness report · {E(m.RunId)} · {E(m.Profile)}");

        AppendHeader(html, m, ReportModel.LegendOf(colors, groups).ToDictionary(label => label, label => colors[label]), analysis.Warnings);
        AppendNav(html, groups, thresholds, run.Events.Count > 0, analysis.Stacks.Count > 0);
        html.AppendLine("<main>");
        html.AppendLine("<noscript><div class=\"notice\">The charts need JavaScript; the tables below do not.</div></noscript>");
        html.AppendLine("<div id=\"report-errors\"></div>");
        if (!m.SeparatesFailures)
        {
            html.AppendLine(CultureInfo.InvariantCulture,
                $"<div class=\"notice\">This run is in raw format {m.FormatVersion}, which does not keep failed requests apart: its latency figures include the failed requests.</div>");
        }

        HtmlGlance.Append(html, groups, colors, thresholds, analysis);
        HtmlStackSection.Append(html, analysis.Stacks);
        if (thresholds.Count > 0)
        {
            AppendThresholds(html, thresholds);
        }

        for (var i = 0; i < groups.Count; i++)
        {
            HtmlGroupSection.Append(html, groups[i], model.Groups[i], colors, i, soak, analysis.Family);
        }

        RunnerSection.AppendHtml(html, analysis.Summaries);
        AppendEventsAndSettings(html, run);
        html.AppendLine("</main>");
        html.AppendLine(CultureInfo.InvariantCulture,
            $"<footer>Harness {E(m.Machine.HarnessVersion)} · run {E(m.RunId)} · charts by {E(HtmlPage.ChartLibrary)}, inlined: this file opens offline.</footer>");
        HtmlPage.AppendScripts(html, HtmlPage.Json(model), PageScript.Value);
        return html.ToString();
    }

    private static void AppendHeader(StringBuilder html, RunManifest m, IReadOnlyDictionary<string, string> colors, IReadOnlyList<string> warnings)
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
        if (warnings.Count > 0)
        {
            html.AppendLine(CultureInfo.InvariantCulture,
                $"<div class=\"warnings\" id=\"warnings\"><b>Warnings: the raw files were damaged or incomplete ({warnings.Count}).</b> Figures cover what could be read.<ul>");
            foreach (var warning in warnings)
            {
                html.AppendLine(CultureInfo.InvariantCulture, $"<li>{E(warning)}</li>");
            }

            html.AppendLine("</ul></div>");
        }

        html.AppendLine("</header>");
    }

    private static void AppendNav(StringBuilder html, IReadOnlyList<ModeComparisonGroup> groups, IReadOnlyList<ThresholdResult> thresholds, bool hasEvents, bool hasStacks)
    {
        html.Append("<nav class=\"toc\"><a href=\"#glance\">At a glance</a>");
        if (hasStacks)
        {
            html.Append(CultureInfo.InvariantCulture, $"<a href=\"#{HtmlStackSection.Anchor}\">{E(StackText.Title)}</a>");
        }

        if (thresholds.Count > 0)
        {
            int failed = thresholds.Count(t => t.Failed), notJudged = thresholds.Count(t => t.Verdict == Verdict.NotJudged);
            var state = (failed, notJudged) switch
            {
                (0, 0) => "all pass",
                (0, _) => $"none failed, {notJudged} not judged",
                (_, 0) => $"{failed} failed",
                _ => $"{failed} failed, {notJudged} not judged",
            };
            html.Append(CultureInfo.InvariantCulture, $"<a href=\"#thresholds\">Thresholds ({state})</a>");
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

    private static void AppendThresholds(StringBuilder html, IReadOnlyList<ThresholdResult> thresholds)
    {
        html.AppendLine("<section class=\"panel\" id=\"thresholds\">");
        html.AppendLine("<h2>Thresholds</h2>");
        html.AppendLine("<p class=\"lead\">Each threshold checked on every series its scope matches. A scope that matches nothing, or a figure that was not measured, fails. "
            + "A soak criterion on a series too short for it is <b>not judged</b>: neither pass nor fail, it does not fail the run (the detail says what it lacked).</p>");
        html.AppendLine("<div class=\"table-wrap\"><table class=\"data\"><thead><tr><th class=\"text\">result</th><th class=\"text\">threshold</th><th class=\"text\">series</th><th>actual</th><th class=\"text\">detail</th></tr></thead><tbody>");
        foreach (var t in thresholds)
        {
            html.AppendLine(CultureInfo.InvariantCulture,
                $"<tr><td class=\"text {t.CssClass}\">{t.Label}</td><td class=\"text\"><code>{E(t.Threshold.Expression)}</code>{(t.Threshold.IsDefault ? " (default)" : string.Empty)}</td>"
                + $"<td class=\"text\">{E(t.SeriesId ?? Format.Missing)}</td><td>{E(t.Actual is { } a ? t.Threshold.FormatValue(a) : Format.Missing)}</td><td class=\"wrap\">{E(t.Message)}</td></tr>");
        }

        html.AppendLine("</tbody></table></div>");
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
}
