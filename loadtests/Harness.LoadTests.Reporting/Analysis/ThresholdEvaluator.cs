using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Formats;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>The outcome of one threshold on one series, or on the repetitions of one mode.</summary>
/// <param name="SeriesId">
/// The series measured; for a repeated mode, its id without the repetition number (<c>grpc-compute-iocp</c>), whose
/// repetitions were judged on their median. Null when the threshold's scope matched no series.
/// </param>
/// <param name="Actual">The figure in the threshold's unit (a repeated mode's median); null when not measured.</param>
public sealed record ThresholdResult(Threshold Threshold, string? SeriesId, double? Actual, bool Passed, string Message);

/// <summary>
/// Checks thresholds against a run: each series on its own, except the repetitions of a mode, which are judged
/// together on the median of their figures. A threshold whose scope matches nothing, or whose figure was not measured, fails.
/// </summary>
public static class ThresholdEvaluator
{
    /// <summary>
    /// The thresholds, plus the soak defaults (<see cref="SoakDefaults"/>) when the run is a soak or a soak threshold
    /// was given, checked against every series they match.
    /// </summary>
    public static IReadOnlyList<ThresholdResult> Evaluate(RunData run, IEnumerable<Threshold> thresholds)
    {
        ArgumentNullException.ThrowIfNull(run);
        return Evaluate(SeriesSummary.ForRun(run), SoakDefaults.With(run.Manifest, thresholds));
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

            // The repetitions of one mode are judged together, on the median of their figures.
            foreach (var unit in matching.GroupBy(s => s.Series.Repetition > 0 ? $"mode\u0001{s.Series.Stack}\u0001{s.Series.Operation}\u0001{s.Series.Mode}" : "series\u0001" + s.Series.Id))
            {
                results.Add(unit.First().Series.Repetition > 0 ? Median(threshold, [.. unit]) : Single(threshold, unit.First()));
            }
        }

        return results;
    }

    private static ThresholdResult Single(Threshold threshold, SeriesSummary summary)
    {
        var limit = threshold.FormatLimit();
        if (threshold.IsSoak)
        {
            var measured = threshold.Measure(summary);
            return new ThresholdResult(threshold, summary.Series.Id, measured, measured is { } m && threshold.IsMetBy(m),
                $"{threshold.DescribeSoak(summary.Soak)} (limit {threshold.OperatorText} {limit})");
        }

        if (threshold.IsKnee)
        {
            var knee = threshold.Measure(summary);
            return new ThresholdResult(threshold, summary.Series.Id, knee is { } k && double.IsFinite(k) ? k : null, knee is { } m && threshold.IsMetBy(m),
                $"{Threshold.DescribeKnee(summary.Knee, summary.IsOpenModel)} (limit {threshold.OperatorText} {limit})");
        }

        if (threshold.Measure(summary) is not { } value)
        {
            return new ThresholdResult(threshold, summary.Series.Id, null, false, $"{threshold.MetricName} {threshold.OperatorText} {limit}: {NotMeasured(threshold)}");
        }

        return new ThresholdResult(threshold, summary.Series.Id, value, threshold.IsMetBy(value),
            $"{threshold.MetricName} = {threshold.FormatValue(value)}, limit {threshold.OperatorText} {limit}");
    }

    private static ThresholdResult Median(Threshold threshold, IReadOnlyList<SeriesSummary> repetitions)
    {
        var id = ModeComparison.ModeIdOf(repetitions[0].Series);
        var limit = threshold.FormatLimit();
        var values = repetitions.Select(threshold.Measure).OfType<double>().ToList();
        var spread = Spread.Of(values);
        if (spread is null)
        {
            return new ThresholdResult(threshold, id, null, false,
                $"{threshold.MetricName} {threshold.OperatorText} {limit}: {NotMeasured(threshold)} in any of its {repetitions.Count} repetitions");
        }

        var of = values.Count == repetitions.Count ? $"{values.Count}" : $"{values.Count} of {repetitions.Count}";
        return new ThresholdResult(threshold, id, spread.Median, threshold.IsMetBy(spread.Median),
            $"{threshold.MetricName} = {threshold.FormatValue(spread.Median)} (median of {of} repetitions: {string.Join(", ", values.Select(threshold.FormatValue))}), "
            + $"limit {threshold.OperatorText} {limit}");
    }

    private static string NotMeasured(Threshold threshold) => threshold.IsLatency ? "no request completed" : "not measured (no server samples?)";

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
                result.Threshold.Expression + (result.Threshold.IsDefault ? " (default)" : string.Empty),
                result.SeriesId ?? Format.Missing,
                result.Actual is { } a ? result.Threshold.FormatValue(a) : Format.Missing,
                result.Message);
        }

        return table;
    }
}
