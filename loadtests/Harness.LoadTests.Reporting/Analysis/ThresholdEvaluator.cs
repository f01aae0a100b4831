using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Formats;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>The outcome of one threshold on one series.</summary>
/// <param name="SeriesId">The series measured; null when the threshold's scope matched no series.</param>
/// <param name="Actual">The series' figure in the threshold's unit; null when not measured.</param>
public sealed record ThresholdResult(Threshold Threshold, string? SeriesId, double? Actual, bool Passed, string Message);

/// <summary>Checks thresholds against a run. A threshold whose scope matches nothing, or whose figure was not measured, fails.</summary>
public static class ThresholdEvaluator
{
    public static IReadOnlyList<ThresholdResult> Evaluate(RunData run, IEnumerable<Threshold> thresholds)
    {
        ArgumentNullException.ThrowIfNull(run);
        return Evaluate(SeriesSummary.ForRun(run), thresholds);
    }

    public static IReadOnlyList<ThresholdResult> Evaluate(IReadOnlyList<SeriesSummary> summaries, IEnumerable<Threshold> thresholds)
    {
        ArgumentNullException.ThrowIfNull(summaries);
        ArgumentNullException.ThrowIfNull(thresholds);
        var results = new List<ThresholdResult>();
        foreach (var threshold in thresholds)
        {
            var matching = summaries.Where(s => threshold.AppliesTo(s.Series)).ToList();
            if (matching.Count == 0)
            {
                results.Add(new ThresholdResult(threshold, null, null, false,
                    threshold.Intended ? "no open-model series matched (co- metrics need one)" : "no series matched the scope"));
                continue;
            }

            foreach (var summary in matching)
            {
                var actual = threshold.Measure(summary);
                var limit = threshold.FormatValue(threshold.Limit);
                if (actual is not { } value)
                {
                    var reason = threshold.IsLatency ? "no request completed" : "not measured (no server samples?)";
                    results.Add(new ThresholdResult(threshold, summary.Series.Id, null, false,
                        $"{threshold.MetricName} {threshold.OperatorText} {limit}: {reason}"));
                    continue;
                }

                var passed = threshold.IsMetBy(value);
                results.Add(new ThresholdResult(threshold, summary.Series.Id, value, passed,
                    $"{threshold.MetricName} = {threshold.FormatValue(value)}, limit {threshold.OperatorText} {limit}"));
            }
        }

        return results;
    }

    public static bool AllPassed(IEnumerable<ThresholdResult> results) => results.All(r => r.Passed);

    /// <summary>For the console: one line per threshold and series, then a count of failures.</summary>
    public static string ToText(IReadOnlyList<ThresholdResult> results) =>
        Table(results).ToText() + $"{results.Count(r => !r.Passed)} of {results.Count} threshold checks failed.{Environment.NewLine}";

    public static string ToMarkdown(IReadOnlyList<ThresholdResult> results) => Table(results).ToMarkdown();

    private static TextTable Table(IReadOnlyList<ThresholdResult> results)
    {
        var table = new TextTable("result", "threshold", "series", ">actual", "detail");
        foreach (var result in results)
        {
            table.Add(
                result.Passed ? "pass" : "FAIL",
                result.Threshold.Expression,
                result.SeriesId ?? Format.Missing,
                result.Actual is { } a ? result.Threshold.FormatValue(a) : Format.Missing,
                result.Message);
        }

        return table;
    }
}
