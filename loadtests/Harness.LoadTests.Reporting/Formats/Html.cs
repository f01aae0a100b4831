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
    /// A series' ratio to the baseline mode. Coloured (better or worse by more than 5 %) only when neither its mode nor
    /// the baseline was repeated: with repetitions the verdict belongs to the modes' medians (<see cref="ModeRatioCell"/>).
    /// </summary>
    public static string RatioCell(ModeRow row, ModeComparisonGroup group, double? ratio, bool lowerIsBetter, bool separator = false)
    {
        if (row.Label == group.Baseline)
        {
            return separator ? "<td class=\"sep\">base</td>" : "<td>base</td>";
        }

        var repeated = group.BaselineMode.IsRepeated || group.Modes.First(m => m.Label == row.ModeLabel).IsRepeated;
        var verdict = ratio is not { } r || repeated || row.ModeLabel == group.Baseline ? RatioVerdict.Same
            : (lowerIsBetter ? r < 1 - ModeRatio.Tolerance : r > 1 + ModeRatio.Tolerance) ? RatioVerdict.Better
            : (lowerIsBetter ? r > 1 + ModeRatio.Tolerance : r < 1 - ModeRatio.Tolerance) ? RatioVerdict.Worse
            : RatioVerdict.Same;
        return Cell(Format.Ratio(ratio), verdict, separator);
    }

    /// <summary>A mode's ratio to the baseline mode with its spread: green or red, or "within noise" when its spread crosses 1.</summary>
    public static string ModeRatioCell(ModeRatio ratio, bool separator = false) => ratio.Verdict switch
    {
        RatioVerdict.Base => separator ? "<td class=\"sep\">base</td>" : "<td>base</td>",
        RatioVerdict.WithinNoise => Cell(E(FigureText.Ratio(ratio)) + " <span class=\"noise-tag\">within noise</span>", ratio.Verdict, separator),
        _ => Cell(E(FigureText.Ratio(ratio)), ratio.Verdict, separator),
    };

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
            RatioVerdict.WithinNoise => ["noise"],
            _ => [],
        });
        return classes.Count == 0 ? $"<td>{html}</td>" : $"<td class=\"{string.Join(' ', classes)}\">{html}</td>";
    }

    public static string Chip(string label, string color) => $"<span class=\"chip\"><i style=\"background:{E(color)}\"></i>{E(label)}</span>";

    public static string E(string text) => WebUtility.HtmlEncode(text);
}
