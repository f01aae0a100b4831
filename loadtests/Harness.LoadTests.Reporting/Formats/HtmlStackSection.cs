using System.Text;
using Harness.LoadTests.Reporting.Analysis;
using static Harness.LoadTests.Reporting.Formats.Html;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>The page's "gRPC ÷ SOAP" section: each operation × mode that ran on both stacks, gRPC's figures ÷ SOAP's.</summary>
internal static class HtmlStackSection
{
    public const string Anchor = "stacks";

    /// <summary>Nothing when no operation × mode ran on both stacks.</summary>
    /// <param name="title">The section's heading (the comparison page's names its run).</param>
    /// <param name="anchor">The section's id.</param>
    public static void Append(StringBuilder html, IReadOnlyList<StackPair> pairs, string title = StackText.Title, string anchor = Anchor)
    {
        if (pairs.Count == 0)
        {
            return;
        }

        html.AppendLine($"<section class=\"panel\" id=\"{E(anchor)}\">");
        html.AppendLine($"<h2>{E(title)}</h2>");
        html.AppendLine($"<p class=\"lead\">{E(StackText.Lead)} Green: gRPC better, its interval (at its Holm level) wholly beyond ±5 %; red: worse.</p>");
        html.AppendLine("<div class=\"table-wrap\"><table class=\"data\"><thead><tr><th class=\"text\">operation · mode</th><th>runs gRPC + SOAP</th>");
        foreach (var figure in StackFigures.All)
        {
            html.Append($"<th>{E(StackFigures.Name(figure))}</th>");
        }

        html.AppendLine("</tr></thead><tbody>");
        foreach (var pair in pairs)
        {
            html.Append($"<tr><td class=\"text\">{E(pair.Title)}</td><td>{E(StackText.Runs(pair))}</td>");
            foreach (var figure in StackFigures.All)
            {
                html.Append(Cell(pair.Ratios[figure]));
            }

            html.AppendLine("</tr>");
        }

        html.AppendLine("</tbody></table></div>");
        html.AppendLine("</section>");
    }

    private static string Cell(StackRatio ratio) => Html.ModeRatioCell(ratio.AsModeRatio());
}
