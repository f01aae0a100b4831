using System.Globalization;
using System.Text;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;
using static Harness.LoadTests.Reporting.Formats.Html;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>
/// The comparison report as one self-contained page, in the run report's style: the runs' charts overlaid per series,
/// the figures' changes against run A with their spread, and the regression gate's verdict. Nothing is fetched.
/// </summary>
internal static class ComparisonHtml
{
    // The shared helpers, the spectrum (tail.js), and the comparison's own drawing.
    private static readonly Lazy<string> PageScript = new(() => HtmlPage.ChartScripts("base.js", "markers.js", "tail.js", "compare.js"));

    /// <param name="comparison">The runs compared.</param>
    /// <param name="gatePercent">The <c>--fail-on-regression</c> limit in %, when given.</param>
    /// <param name="warnings">What the raw files' reader tolerated, in every run.</param>
    public static string Render(MultiRunComparison comparison, double? gatePercent = null, IReadOnlyList<string>? warnings = null)
    {
        ArgumentNullException.ThrowIfNull(comparison);
        var model = ComparisonModel.Build(comparison);
        var runs = comparison.Runs;
        var html = new StringBuilder(256 * 1024);
        HtmlPage.AppendHead(html, $"Harness comparison · {E(string.Join(" · ", runs.Select(r => r.Manifest.RunId)))}");
        html.AppendLine("<header class=\"top\">");
        html.AppendLine("<div class=\"brand\">Harness · comparison report</div>");
        html.AppendLine(CultureInfo.InvariantCulture, $"<h1>{runs.Count} runs against run A</h1>");
        html.Append("<div class=\"modes\">");
        for (var i = 0; i < runs.Count; i++)
        {
            var manifest = runs[i].Manifest;
            html.Append(Chip($"{model.Runs[i].Letter}: {manifest.RunId} ({manifest.Profile}, time scale {Format.Plain(manifest.TimeScale)})", model.Runs[i].Color));
        }

        html.AppendLine("</div>");
        if (warnings is { Count: > 0 })
        {
            html.AppendLine(CultureInfo.InvariantCulture, $"<div class=\"warnings\"><b>Warnings: the raw files were damaged or incomplete ({warnings.Count}).</b><ul>");
            foreach (var warning in warnings)
            {
                html.AppendLine(CultureInfo.InvariantCulture, $"<li>{E(warning)}</li>");
            }

            html.AppendLine("</ul></div>");
        }

        html.AppendLine("</header>");
        html.Append("<nav class=\"toc\"><a href=\"#overview\">Overview</a>");
        foreach (var series in comparison.Series)
        {
            html.Append(CultureInfo.InvariantCulture, $"<a href=\"#c-{E(series.Key)}\">{E(series.Key)}</a>");
        }

        html.AppendLine("</nav>");
        html.AppendLine("<main>");
        html.AppendLine("<div id=\"report-errors\"></div>");
        AppendOverview(html, comparison, model, gatePercent);
        for (var i = 0; i < comparison.Stacks.Count; i++)
        {
            HtmlStackSection.Append(html, comparison.Stacks[i], StackText.RunTitle(comparison, i), $"{HtmlStackSection.Anchor}-{ComparisonModel.LetterOf(i)}");
        }

        for (var i = 0; i < comparison.Series.Count; i++)
        {
            AppendSeries(html, comparison, comparison.Series[i], model, i);
        }

        html.AppendLine("</main>");
        html.AppendLine(CultureInfo.InvariantCulture, $"<footer>Harness comparison · charts by {E(HtmlPage.ChartLibrary)}, inlined: this file opens offline.</footer>");
        HtmlPage.AppendScripts(html, HtmlPage.Json(model), PageScript.Value);
        return html.ToString();
    }

    private static void AppendOverview(StringBuilder html, MultiRunComparison comparison, ComparisonModel model, double? gatePercent)
    {
        html.AppendLine("<section class=\"panel\" id=\"overview\">");
        html.AppendLine("<h2>Overview</h2>");
        html.AppendLine(CultureInfo.InvariantCulture, $"<p class=\"lead\">{E(ComparisonMarkdown.Lead)}</p>");
        for (var i = 1; i < comparison.Runs.Count; i++)
        {
            if (comparison.Differences[i].Count > 0)
            {
                html.AppendLine(CultureInfo.InvariantCulture,
                    $"<div class=\"notice\"><b>Run {model.Runs[i].Letter} asked differently from A</b>, so a change may come from that rather than from the code: {E(string.Join(" ", comparison.Differences[i]))}</div>");
            }
        }

        if (gatePercent is { } gate)
        {
            var result = comparison.Gate(gate);
            var lines = ComparisonMarkdown.GateLines(result).ToList();
            var list = lines.Count == 0 ? string.Empty : "<ul>" + string.Concat(lines.Select(l => $"<li>{E(l)}</li>")) + "</ul>";
            var css = result.Outcome switch { GateOutcome.Pass => "ok", GateOutcome.Fail => "error", _ => "warn" };
            html.AppendLine(CultureInfo.InvariantCulture,
                $"<div class=\"notice {css}\" id=\"gate\">Regression gate: {MarkdownToHtml(ComparisonMarkdown.GateText(result, gate))}{list}</div>");
        }

        ModeFigure[] figures = [ModeFigure.Mean, ModeFigure.P99, ModeFigure.P999, ModeFigure.RequestsPerSecond, ModeFigure.ErrorRate, ModeFigure.ContextSwitchesPerRequest];
        html.Append("<div class=\"table-wrap\"><table class=\"data\"><thead><tr><th class=\"text\">series</th><th class=\"text\">run</th>");
        foreach (var figure in figures)
        {
            html.Append(CultureInfo.InvariantCulture, $"<th>{E(ModeFigures.Name(figure))}</th>");
        }

        html.AppendLine("</tr></thead><tbody>");
        foreach (var series in comparison.Series)
        {
            for (var i = 1; i < comparison.Runs.Count; i++)
            {
                html.Append(i == 1 ? "<tr class=\"group-start\">" : "<tr>");
                html.Append(CultureInfo.InvariantCulture,
                    $"<td class=\"text\">{(i == 1 ? $"<a href=\"#c-{E(series.Key)}\">{E(series.Key)}</a>" : string.Empty)}</td><td class=\"text\">{Chip(model.Runs[i].Letter, model.Runs[i].Color)}</td>");
                foreach (var figure in figures)
                {
                    html.Append(DeltaCell(series.Against[i]?.First(f => f.Figure == figure), series.ByRun[i].Count == 0 ? "not in this run" : "not in run A"));
                }

                html.AppendLine("</tr>");
            }
        }

        html.AppendLine("</tbody></table></div>");
        html.AppendLine("</section>");
    }

    private static void AppendSeries(StringBuilder html, MultiRunComparison comparison, ComparedSeries series, ComparisonModel model, int index)
    {
        html.AppendLine(CultureInfo.InvariantCulture, $"<section class=\"panel group\" id=\"c-{E(series.Key)}\">");
        html.AppendLine(CultureInfo.InvariantCulture, $"<h2>{E(series.Key)}</h2>");
        html.AppendLine(CultureInfo.InvariantCulture,
            $"<p class=\"lead\">{E(series.Stack)} · {E(series.Operation)} · {E(series.Mode)}; "
            + $"{string.Join(", ", series.ByRun.Select((r, i) => $"{model.Runs[i].Letter}: {(r.Count == 0 ? "absent" : r.Count == 1 ? "one series" : $"{r.Count} repetitions")}"))}. "
            + $"A value is the median of the run's repetitions with their bounds in brackets.</p>");
        html.Append("<div class=\"table-wrap\"><table class=\"data\"><thead><tr><th class=\"text\">figure</th>");
        for (var i = 0; i < comparison.Runs.Count; i++)
        {
            html.Append(CultureInfo.InvariantCulture, $"<th{(i > 0 ? " class=\"sep\"" : string.Empty)}>{Chip(model.Runs[i].Letter, model.Runs[i].Color)}</th>");
            if (i > 0)
            {
                html.Append(CultureInfo.InvariantCulture, $"<th>change {model.Runs[i].Letter}</th>");
            }
        }

        html.AppendLine("</tr></thead><tbody>");
        foreach (var figure in MultiRunComparison.Figures)
        {
            html.Append(CultureInfo.InvariantCulture, $"<tr><td class=\"text\">{E(ComparisonMarkdown.FigureName(figure))}</td>");
            for (var i = 0; i < comparison.Runs.Count; i++)
            {
                html.Append(CultureInfo.InvariantCulture,
                    $"<td{(i > 0 ? " class=\"sep\"" : string.Empty)}>{E(ComparisonMarkdown.ValueText(figure, ComparisonMarkdown.SpreadOf(series.ByRun[i], figure)))}</td>");
                if (i > 0)
                {
                    html.Append(DeltaCell(series.Against[i]?.First(f => f.Figure == figure), Format.Missing));
                }
            }

            html.AppendLine("</tr>");
        }

        html.AppendLine("</tbody></table></div>");
        html.AppendLine("<h3>Charts</h3>");
        html.AppendLine(CultureInfo.InvariantCulture, $"<div class=\"charts-host\" data-group=\"{index}\"></div>");
        html.AppendLine("</section>");
    }

    private static string DeltaCell(ComparedFigure? figure, string missing)
    {
        if (figure is null)
        {
            return $"<td>{E(missing)}</td>";
        }

        var css = figure.Ratio.Verdict switch
        {
            RatioVerdict.Better => " class=\"better\"",
            RatioVerdict.Worse => " class=\"worse\"",
            RatioVerdict.Inconclusive => " class=\"noise\"",
            _ => string.Empty,
        };
        return $"<td{css}>{E(ComparisonMarkdown.DeltaText(figure))}</td>";
    }

    // The gate's line is written for Markdown; its only markup is **bold**.
    private static string MarkdownToHtml(string line)
    {
        var parts = E(line).Split("**");
        return string.Concat(parts.Select((p, i) => i % 2 == 1 ? $"<b>{p}</b>" : p));
    }
}
