using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>One figure of a series in run A and run B.</summary>
/// <param name="PercentChange">(B − A) ÷ A × 100; 0 when both are 0; null when A is 0 and B is not, or either is missing.</param>
/// <param name="LowerIsBetter">True for latency, errors and context switches; false for throughput.</param>
internal sealed record MetricChange(string Metric, double? Before, double? After, double? PercentChange, bool LowerIsBetter)
{
    /// <summary>
    /// True when B is worse than A by more than <paramref name="tolerancePercent"/>: this series' own change, without
    /// noise. <c>harness compare</c> marks by the mode's verdict instead (<see cref="SeriesPairing.ByMode"/>).
    /// </summary>
    public bool IsRegression(double tolerancePercent = 0)
    {
        if (PercentChange is { } p)
        {
            return LowerIsBetter ? p > tolerancePercent : p < -tolerancePercent;
        }

        // Only A was zero: B gained errors or latency from nothing.
        return LowerIsBetter && Before == 0 && After > 0;
    }
}

/// <summary>A series found in both runs.</summary>
/// <param name="MatchedBy"><c>id</c>, or <c>stack+operation+mode</c> when the ids differ.</param>
internal sealed record SeriesComparison(string Name, string MatchedBy, SeriesSummary Before, SeriesSummary After, IReadOnlyList<MetricChange> Changes);

/// <summary>
/// Run B against run A series by series, each repetition on its own, as <c>harness compare</c> lists them on the console:
/// one view of a <see cref="MultiRunComparison"/>, whose <see cref="MultiRunComparison.Pairings"/> hold one per run after A.
/// </summary>
internal sealed record SeriesPairing(
    string RunA,
    string RunB,
    IReadOnlyList<SeriesComparison> Matched,
    IReadOnlyList<SeriesInfo> OnlyInA,
    IReadOnlyList<SeriesInfo> OnlyInB)
{
    public const string MeanMs = "mean ms";
    public const string P50Ms = "p50 ms";
    public const string P90Ms = "p90 ms";
    public const string P99Ms = "p99 ms";
    public const string P999Ms = "p99.9 ms";
    public const string P9999Ms = "p99.99 ms";
    public const string MaxMs = "max ms";
    public const string RequestsPerSecond = "req/s";
    public const string ErrorRate = "error rate";
    public const string ContextSwitchesPerRequest = "ctx switches/req";
    public const string IntendedMeanMs = "intended mean ms";
    public const string IntendedP99Ms = "intended p99 ms";

    /// <summary>How the runs differ in profile, time scale, operation parameters, warm-up or raw format (<see cref="RunDifferences"/>).</summary>
    public IReadOnlyList<string> Differences { get; init; } = [];

    /// <summary>
    /// Run B's compared series (a mode's repetitions together) judged against run A's: what the console's marks
    /// follow (<see cref="MultiRunComparison"/>, docs/compare.md "The verdict").
    /// </summary>
    public IReadOnlyList<ModeJudgement> ByMode { get; init; } = [];

    /// <summary>
    /// Matches series by id first, then the rest by stack + operation + mode (so a renamed target still pairs up);
    /// series left over are listed as present in one run only.
    /// </summary>
    internal static SeriesPairing Of(RunData a, IReadOnlyList<SeriesSummary> summariesOfA, RunData b, IReadOnlyList<SeriesSummary> summariesOfB)
    {
        var before = summariesOfA.ToList();
        var after = summariesOfB.ToList();
        var matched = new List<SeriesComparison>();

        foreach (var left in before.ToList())
        {
            var right = after.FirstOrDefault(r => r.Series.Id == left.Series.Id);
            if (right is not null)
            {
                matched.Add(Pair(left.Series.Id, "id", left, right));
                before.Remove(left);
                after.Remove(right);
            }
        }

        foreach (var left in before.ToList())
        {
            var right = after.FirstOrDefault(r => MultiRunComparison.SameShape(r.Series, left.Series));
            if (right is not null)
            {
                matched.Add(Pair($"{left.Series.Id} ↔ {right.Series.Id}", "stack+operation+mode", left, right));
                before.Remove(left);
                after.Remove(right);
            }
        }

        return new SeriesPairing(a.Manifest.RunId, b.Manifest.RunId, matched, [.. before.Select(s => s.Series)], [.. after.Select(s => s.Series)])
        {
            Differences = RunDifferences.Between(a.Manifest, b.Manifest, matched.Select(m => (m.Before.Series, m.After.Series))),
        };
    }

    private static SeriesComparison Pair(string name, string matchedBy, SeriesSummary a, SeriesSummary b)
    {
        var changes = new List<MetricChange>
        {
            Change(MeanMs, a, b, s => s.Latency.MeanMs),
            Change(P50Ms, a, b, s => s.Latency.P50Ms),
            Change(P90Ms, a, b, s => s.Latency.P90Ms),
            Change(P99Ms, a, b, s => s.Latency.P99Ms),
            Change(P999Ms, a, b, s => s.Latency.P999Ms),
            Change(P9999Ms, a, b, s => s.Latency.P9999Ms),
            Change(MaxMs, a, b, s => s.Latency.MaxMs),
            Change(RequestsPerSecond, a, b, s => s.RequestsPerSecond, lowerIsBetter: false),
            Change(ErrorRate, a, b, s => s.ErrorRate),
            Change(ContextSwitchesPerRequest, a, b, s => s.ContextSwitchesPerRequest),
        };
        if (a.IntendedLatency is not null || b.IntendedLatency is not null)
        {
            changes.Add(Change(IntendedMeanMs, a, b, s => s.IntendedLatency?.MeanMs));
            changes.Add(Change(IntendedP99Ms, a, b, s => s.IntendedLatency?.P99Ms));
        }

        return new SeriesComparison(name, matchedBy, a, b, changes);
    }

    private static MetricChange Change(string metric, SeriesSummary a, SeriesSummary b, Func<SeriesSummary, double?> read, bool lowerIsBetter = true)
    {
        double? before = read(a), after = read(b);
        return new MetricChange(metric, before, after, Ratio.PercentChange(before, after), lowerIsBetter);
    }
}
