using System.Globalization;
using System.Text;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;
using static Harness.LoadTests.Reporting.Formats.Html;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>
/// A group's Modes table, when a mode was repeated: per mode the median of its repetitions with its bounds, the run's
/// own A/A spread, and each ratio to the baseline with its interval and verdict.
/// </summary>
internal static class HtmlModesTable
{
    private static readonly ModeFigure[] Figures = [ModeFigure.Mean, ModeFigure.P99, ModeFigure.RequestsPerSecond];

    public static void Append(StringBuilder html, ModeComparisonGroup group, IReadOnlyDictionary<string, string> colors)
    {
        html.AppendLine("<h3>Modes over their repetitions</h3>");
        html.AppendLine(CultureInfo.InvariantCulture,
            $"<p class=\"note\">Each figure is the median of the mode's repetitions, with its bounds: their min–max under {Spread.IntervalFrom} repetitions, "
            + $"from {Spread.IntervalFrom} on the distribution-free confidence interval of the median (order statistics; its coverage is given). "
            + $"A/A: the largest ÷ the smallest repetition − 1, how much this run differs from itself. A ratio's interval comes from the two modes compared, "
            + $"paired by round where both ran in every round, at the level the report's family judged it at (its tooltip); see At a glance for the rule.</p>");
        html.AppendLine("<div class=\"table-wrap\"><table class=\"data\"><thead>");
        html.Append("<tr><th></th><th></th><th></th>");
        foreach (var figure in Figures)
        {
            html.Append(CultureInfo.InvariantCulture, $"<th class=\"band sep\" colspan=\"2\">{E(Title(figure))}</th>");
        }

        html.AppendLine(CultureInfo.InvariantCulture, $"<th class=\"band sep\" colspan=\"{Figures.Length}\">÷ {E(group.Baseline)}</th></tr>");
        html.Append("<tr><th class=\"text\">mode</th><th>runs</th><th class=\"text\">bounds</th>");
        foreach (var _ in Figures)
        {
            html.Append("<th class=\"sep\">median (bounds)</th><th>A/A</th>");
        }

        html.Append("<th class=\"sep\">mean</th><th>p99</th><th>req/s</th>");
        html.AppendLine("</tr></thead><tbody>");
        foreach (var mode in group.Modes)
        {
            html.Append(mode.Label == group.Baseline ? "<tr class=\"baseline\">" : "<tr>");
            html.Append(CultureInfo.InvariantCulture,
                $"<td class=\"text\">{Chip(mode.Label, colors[mode.Label])}</td><td>{mode.Rows.Count}</td><td class=\"text\">{E(FigureText.Bounds(mode.Of(ModeFigure.Mean)))}</td>");
            foreach (var figure in Figures)
            {
                var spread = mode.Of(figure);
                html.Append(CultureInfo.InvariantCulture,
                    $"<td class=\"sep\">{E(FigureText.Spread(spread))}</td><td>{(spread is { Count: > 1 } ? Format.Rate(spread.AaSpread) : Format.Missing)}</td>");
            }

            for (var i = 0; i < Figures.Length; i++)
            {
                html.Append(ModeRatioCell(mode.RatioOf(Figures[i]), separator: i == 0));
            }

            html.AppendLine("</tr>");
        }

        html.AppendLine("</tbody></table></div>");
    }

    private static string Title(ModeFigure figure) => figure == ModeFigure.RequestsPerSecond ? "req/s" : ModeFigures.Name(figure) + " ms";
}
