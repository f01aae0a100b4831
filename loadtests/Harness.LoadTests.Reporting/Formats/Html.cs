using System.Net;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>HTML pieces the report's sections share: escaping, mode chips and table cells.</summary>
internal static class Html
{
    public static string LatencyCell(SeriesSummary s, double value) => s.Latency.Count == 0 ? Format.Missing : Format.Number(value);

    public static string ErrorsCell(SeriesSummary s) =>
        s.Requests == 0 ? Format.Missing : s.Failures == 0 ? "0" : $"{Format.Integer(s.Failures)} ({Format.Rate(s.ErrorRate)})";

    /// <summary>
    /// A series' ratio to the baseline mode, never coloured: one series has no spread, so the verdict belongs to the
    /// modes' ratios over their repetitions (<see cref="ModeRatioCell"/>).
    /// </summary>
    public static string RatioCell(ModeRow row, ModeComparisonGroup group, double? ratio, bool separator = false) =>
        row.Label == group.Baseline
            ? separator ? "<td class=\"sep\">base</td>" : "<td>base</td>"
            : Cell(Format.Ratio(ratio), RatioVerdict.NotJudged, separator);

    /// <summary>
    /// A ratio to the baseline with its interval: green or red when judged better or worse, grey and tagged when
    /// inconclusive, tagged when it shows no difference, is a single run or has no interval; a figure that carries no
    /// verdict is plain. The interval's confidence (the Holm level of a judged one) is its tooltip.
    /// </summary>
    public static string ModeRatioCell(ModeRatio ratio, bool separator = false)
    {
        if (ratio.Verdict == RatioVerdict.Base)
        {
            return separator ? "<td class=\"sep\">base</td>" : "<td>base</td>";
        }

        var words = FigureText.Verdict(ratio);
        var tag = ratio.Verdict is RatioVerdict.Better or RatioVerdict.Worse || words.Length == 0 ? string.Empty : $" <span class=\"noise-tag\">{E(words)}</span>";
        var text = E(FigureText.Ratio(ratio));
        var shown = ratio.Level is { } level ? $"<span title=\"{E(FigureText.Percent(level))} interval\">{text}</span>" : text;
        return Cell(shown + tag, ratio.Verdict, separator);
    }

    private static string Cell(string html, RatioVerdict verdict, bool separator)
    {
        var classes = new List<string>();
        if (separator)
        {
            classes.Add("sep");
        }

        classes.AddRange(verdict switch
        {
            RatioVerdict.Better => ["better"],
            RatioVerdict.Worse => ["worse"],
            RatioVerdict.Inconclusive => ["noise"],
            _ => [],
        });
        return classes.Count == 0 ? $"<td>{html}</td>" : $"<td class=\"{string.Join(' ', classes)}\">{html}</td>";
    }

    public static string Chip(string label, string color) => $"<span class=\"chip\"><i style=\"background:{E(color)}\"></i>{E(label)}</span>";

    public static string E(string text) => WebUtility.HtmlEncode(text);
}
