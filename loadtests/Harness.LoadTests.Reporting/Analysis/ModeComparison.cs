using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>The modes of one (stack, operation) pair in one run, each against the baseline mode.</summary>
/// <param name="Baseline">Label of the baseline row: <c>threadpool</c> when present, else the first mode run.</param>
public sealed record ModeComparisonGroup(string Stack, string Operation, string Baseline, IReadOnlyList<ModeRow> Rows)
{
    public string Title => $"{Stack} · {Operation}";

    /// <summary>An id safe in file names and HTML anchors.</summary>
    public string Key => $"{Stack}-{Operation}";

    public ModeRow BaselineRow => Rows.First(r => r.Label == Baseline);
}

/// <summary>One series of a group: its label on charts (the mode, or the series id when two share a mode).</summary>
public sealed record ModeRow(string Label, SeriesSummary Summary, ModeRatios Ratios);

/// <summary>
/// This row's figure ÷ the baseline row's (the baseline's own ratios are 1). Null where either figure is missing,
/// or the baseline is 0 and this row is not.
/// </summary>
public sealed record ModeRatios(
    double? Mean,
    double? P50,
    double? P90,
    double? P99,
    double? Max,
    double? RequestsPerSecond,
    double? ErrorRate,
    double? PeakThreads,
    double? ContextSwitchesPerRequest,
    double? IntendedMean,
    double? IntendedP99)
{
    public static ModeRatios Between(SeriesSummary row, SeriesSummary baseline)
    {
        ArgumentNullException.ThrowIfNull(row);
        ArgumentNullException.ThrowIfNull(baseline);
        return new ModeRatios(
            Ratio.Of(row.Latency.MeanMs, baseline.Latency.MeanMs, row.Latency.Count, baseline.Latency.Count),
            Ratio.Of(row.Latency.P50Ms, baseline.Latency.P50Ms, row.Latency.Count, baseline.Latency.Count),
            Ratio.Of(row.Latency.P90Ms, baseline.Latency.P90Ms, row.Latency.Count, baseline.Latency.Count),
            Ratio.Of(row.Latency.P99Ms, baseline.Latency.P99Ms, row.Latency.Count, baseline.Latency.Count),
            Ratio.Of(row.Latency.MaxMs, baseline.Latency.MaxMs, row.Latency.Count, baseline.Latency.Count),
            Ratio.Of(row.RequestsPerSecond, baseline.RequestsPerSecond),
            Ratio.Of(row.ErrorRate, baseline.ErrorRate),
            Ratio.Of(row.PeakThreads, baseline.PeakThreads),
            Ratio.Of(row.ContextSwitchesPerRequest, baseline.ContextSwitchesPerRequest),
            Ratio.Of(row.IntendedLatency?.MeanMs, baseline.IntendedLatency?.MeanMs),
            Ratio.Of(row.IntendedLatency?.P99Ms, baseline.IntendedLatency?.P99Ms));
    }
}

/// <summary>Groups a run's series by (stack, operation) and compares the modes in each.</summary>
public static class ModeComparison
{
    public const string PreferredBaseline = "threadpool";

    /// <summary>Groups in the order their first series appears in the manifest; rows in the run's mode order.</summary>
    public static IReadOnlyList<ModeComparisonGroup> Build(RunData run)
    {
        ArgumentNullException.ThrowIfNull(run);
        return Build(run.Manifest, SeriesSummary.ForRun(run));
    }

    public static IReadOnlyList<ModeComparisonGroup> Build(RunManifest manifest, IReadOnlyList<SeriesSummary> summaries)
    {
        ArgumentNullException.ThrowIfNull(manifest);
        ArgumentNullException.ThrowIfNull(summaries);
        var groups = new List<ModeComparisonGroup>();
        foreach (var group in summaries.GroupBy(s => (s.Series.Stack, s.Series.Operation)))
        {
            var ordered = group
                .Select((summary, index) => (summary, index))
                .OrderBy(p => ModeOrder(manifest.Modes, p.summary.Series.Mode))
                .ThenBy(p => p.index)
                .Select(p => p.summary)
                .ToList();
            var sharedModes = ordered.GroupBy(s => s.Series.Mode, StringComparer.Ordinal)
                .Where(g => g.Count() > 1)
                .Select(g => g.Key)
                .ToHashSet(StringComparer.Ordinal);
            string LabelOf(SeriesSummary s) => sharedModes.Contains(s.Series.Mode) ? s.Series.Id : s.Series.Mode;

            var baseline = ordered.FirstOrDefault(s => string.Equals(s.Series.Mode, PreferredBaseline, StringComparison.OrdinalIgnoreCase))
                ?? ordered[0];
            var rows = ordered.Select(s => new ModeRow(LabelOf(s), s, ModeRatios.Between(s, baseline))).ToList();
            groups.Add(new ModeComparisonGroup(group.Key.Stack, group.Key.Operation, LabelOf(baseline), rows));
        }

        return groups;
    }

    private static int ModeOrder(IReadOnlyList<string> modes, string mode)
    {
        for (var i = 0; i < modes.Count; i++)
        {
            if (string.Equals(modes[i], mode, StringComparison.OrdinalIgnoreCase))
            {
                return i;
            }
        }

        return modes.Count;
    }
}

/// <summary>Ratios and percentage changes with the zero cases made explicit.</summary>
public static class Ratio
{
    /// <summary><paramref name="value"/> ÷ <paramref name="baseline"/>; 1 when both are 0; null when only the baseline is 0 or either is missing.</summary>
    public static double? Of(double? value, double? baseline)
    {
        if (value is not { } v || baseline is not { } b)
        {
            return null;
        }

        if (b == 0)
        {
            return v == 0 ? 1 : null;
        }

        return v / b;
    }

    /// <summary>(after − before) ÷ before × 100; 0 when both are 0; null when only <paramref name="before"/> is 0 or either is missing.</summary>
    public static double? PercentChange(double? before, double? after)
    {
        var ratio = Of(after, before);
        return ratio is null ? null : (ratio.Value - 1) * 100;
    }

    // A latency ratio needs requests on both sides: an empty series' 0 ms is no measurement.
    internal static double? Of(double value, double baseline, long count, long baselineCount) =>
        count == 0 || baselineCount == 0 ? null : Of(value, baseline);
}
