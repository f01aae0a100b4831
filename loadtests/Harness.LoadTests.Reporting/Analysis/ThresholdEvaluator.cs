using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>What a threshold said of a series.</summary>
// Public, as the package's only types: the tests' theories take it as a parameter, and xUnit runs public methods.
public enum Verdict
{
    Passed,

    /// <summary>Breached, or not measured, or its scope matched nothing: the run exits 1.</summary>
    Failed,

    /// <summary>
    /// Neither: the series is too short for the figure to mean anything (a soak criterion under its minimum span,
    /// <see cref="Threshold.NotJudgedBecause"/>). It does not fail the run, and every format says so.
    /// </summary>
    NotJudged,
}

/// <summary>The outcome of one threshold on one series, or on the repetitions of one mode.</summary>
/// <param name="SeriesId">
/// The series measured; for a repeated mode, its id without the repetition number (<c>grpc-compute-iocp</c>), whose
/// repetitions were judged on their median. Null when the threshold's scope matched no series.
/// </param>
/// <param name="Actual">The figure in the threshold's unit (a repeated mode's median); null when not measured or not judged.</param>
/// <param name="Message">The figure and the limit in words; for <see cref="Verdict.NotJudged"/>, why not.</param>
internal sealed record ThresholdResult(Threshold Threshold, string? SeriesId, double? Actual, Verdict Verdict, string Message)
{
    public bool Passed => Verdict == Verdict.Passed;

    public bool Failed => Verdict == Verdict.Failed;

    internal static Verdict Of(bool met) => met ? Verdict.Passed : Verdict.Failed;
}

/// <summary>
/// Checks thresholds against a run: each series on its own, except the repetitions of a mode, which are judged
/// together on the median of their figures. A threshold whose scope matches nothing, or whose figure was not measured, fails;
/// a soak criterion on a series too short for it is not judged.
/// </summary>
internal static class ThresholdEvaluator
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
            if (threshold.IsStackRatio)
            {
                results.AddRange(threshold.JudgeStacks(summaries));
                continue;
            }

            var matching = summaries.Where(s => threshold.AppliesTo(s.Series)).ToList();
            if (matching.Count == 0)
            {
                results.Add(new ThresholdResult(threshold, null, null, Verdict.Failed,
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
            if (threshold.NotJudgedBecause(summary.Soak) is { } reason)
            {
                return new ThresholdResult(threshold, summary.Series.Id, null, Verdict.NotJudged, reason);
            }

            var measured = threshold.Measure(summary);
            return new ThresholdResult(threshold, summary.Series.Id, measured, ThresholdResult.Of(measured is { } m && threshold.IsMetBy(m)),
                $"{threshold.DescribeSoak(summary.Soak)} (limit {threshold.OperatorText} {limit})");
        }

        if (threshold.IsKnee)
        {
            var knee = threshold.Measure(summary);
            return new ThresholdResult(threshold, summary.Series.Id, knee is { } k && double.IsFinite(k) ? k : null, ThresholdResult.Of(knee is { } m && threshold.IsMetBy(m)),
                $"{Threshold.DescribeKnee(summary.Knee, summary.IsOpenModel)} (limit {threshold.OperatorText} {limit})");
        }

        if (threshold.Measure(summary) is not { } value)
        {
            var why = threshold.Metric == ThresholdMetric.StarvationThreads ? Threshold.NoRuntimeFigures(summary) : NotMeasured(threshold);
            return new ThresholdResult(threshold, summary.Series.Id, null, Verdict.Failed, $"{threshold.MetricName} {threshold.OperatorText} {limit}: {why}");
        }

        var verdict = threshold.Metric == ThresholdMetric.StarvationThreads && summary.Runtime is { } runtime ? $" ({runtime.Describe()})" : string.Empty;
        return new ThresholdResult(threshold, summary.Series.Id, value, ThresholdResult.Of(threshold.IsMetBy(value)),
            $"{threshold.MetricName} = {threshold.FormatValue(value)}, limit {threshold.OperatorText} {limit}{verdict}");
    }

    private static ThresholdResult Median(Threshold threshold, IReadOnlyList<SeriesSummary> repetitions)
    {
        var id = ModeComparison.ModeIdOf(repetitions[0].Series);
        var limit = threshold.FormatLimit();
        // A soak criterion is judged on the repetitions long enough for it; on none, it is not judged.
        var judged = threshold.IsSoak ? repetitions.Where(r => threshold.NotJudgedBecause(r.Soak) is null).ToList() : repetitions;
        if (judged.Count == 0)
        {
            return new ThresholdResult(threshold, id, null, Verdict.NotJudged,
                $"{threshold.NotJudgedBecause(repetitions[0].Soak)}, in each of its {repetitions.Count} repetitions");
        }

        var values = judged.Select(threshold.Measure).OfType<double>().ToList();
        var spread = Spread.Of(values);
        if (spread is null)
        {
            return new ThresholdResult(threshold, id, null, Verdict.Failed,
                $"{threshold.MetricName} {threshold.OperatorText} {limit}: {NotMeasured(threshold)} in any of its {repetitions.Count} repetitions");
        }

        var of = values.Count == repetitions.Count ? $"{values.Count}" : $"{values.Count} of {repetitions.Count}";
        return new ThresholdResult(threshold, id, spread.Median, ThresholdResult.Of(threshold.IsMetBy(spread.Median)),
            $"{threshold.MetricName} = {threshold.FormatValue(spread.Median)} (median of {of} repetitions: {string.Join(", ", values.Select(threshold.FormatValue))}), "
            + $"limit {threshold.OperatorText} {limit}");
    }

    private static string NotMeasured(Threshold threshold) =>
        threshold.IsLatency ? "no request completed"
        : threshold.Metric == ThresholdMetric.StarvationThreads ? "no runtime ThreadPool figures that count injections (docs/runtime.md)"
        : "not measured (no server samples?)";

    /// <summary>True when a threshold failed: what the console app turns into exit code 1. A check not judged fails nothing.</summary>
    public static bool AnyFailed(IEnumerable<ThresholdResult> results) => results.Any(r => r.Failed);
}
