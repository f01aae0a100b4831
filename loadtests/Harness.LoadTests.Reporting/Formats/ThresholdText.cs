using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>Threshold verdicts as every format writes them: the words, the HTML class, the console and Markdown tables.</summary>
internal static class ThresholdText
{
    extension(ThresholdResult r)
    {
        /// <summary>The verdict as every format writes it: <c>pass</c>, <c>FAIL</c>, <c>not judged</c>.</summary>
        public string Label => r.Verdict switch
        {
            Verdict.Passed => "pass",
            Verdict.Failed => "FAIL",
            _ => "not judged",
        };

        /// <summary>The CSS class of <c>Label</c> in the HTML report.</summary>
        public string CssClass => r.Verdict switch
        {
            Verdict.Passed => "pass",
            Verdict.Failed => "fail",
            _ => "unjudged",
        };
    }

    /// <summary>The count line every format ends its thresholds with: "5 threshold checks: 1 passed, 0 failed, 4 not judged."</summary>
    public static string Tally(IReadOnlyCollection<ThresholdResult> results) =>
        $"{results.Count} threshold checks: {results.Count(r => r.Passed)} passed, {results.Count(r => r.Failed)} failed, "
        + $"{results.Count(r => r.Verdict == Verdict.NotJudged)} not judged.";

    /// <summary>For the console: one line per threshold and series, then <see cref="Tally"/>.</summary>
    public static string ToText(IReadOnlyList<ThresholdResult> results) =>
        Table(results).ToText() + Tally(results) + Environment.NewLine;

    public static string ToMarkdown(IReadOnlyList<ThresholdResult> results) => Table(results).ToMarkdown();

    private static TextTable Table(IReadOnlyList<ThresholdResult> results)
    {
        var table = new TextTable("result", "threshold", "series", ">actual", "detail");
        foreach (var result in results)
        {
            table.Add(
                result.Label,
                result.Threshold.Expression + (result.Threshold.IsDefault ? " (default)" : string.Empty),
                result.SeriesId ?? Format.Missing,
                result.Actual is { } a ? result.Threshold.FormatValue(a) : Format.Missing,
                result.Message);
        }

        return table;
    }
}
