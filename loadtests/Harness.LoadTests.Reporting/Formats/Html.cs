using System.Net;
using Harness.LoadTests.Reporting.Analysis;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>HTML pieces the report's sections share: escaping, mode chips and table cells.</summary>
internal static class Html
{
    public static string LatencyCell(SeriesSummary s, double value) => s.Latency.Count == 0 ? Format.Missing : Format.Number(value);

    public static string ErrorsCell(SeriesSummary s) =>
        s.Requests == 0 ? Format.Missing : s.Failures == 0 ? "0" : $"{Format.Integer(s.Failures)} ({Format.Rate(s.ErrorRate)})";

    public static string RatioCell(ModeRow row, ModeComparisonGroup group, double? ratio, bool lowerIsBetter, bool separator = false)
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

    public static string Chip(string label, string color) => $"<span class=\"chip\"><i style=\"background:{E(color)}\"></i>{E(label)}</span>";

    public static string E(string text) => WebUtility.HtmlEncode(text);
}
