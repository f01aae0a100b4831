using Harness.LoadTests.Reporting.Text;

namespace Harness.LoadTests.Reporting.Analysis;

// The soak criteria of the threshold language: soak.p99.drift, soak.rps.drift, soak.memory.growth,
// soak.threads.growth and soak.errors (docs/report.md, "Soak").
internal sealed partial record Threshold
{
    /// <summary>True for the <c>soak.*</c> metrics, which read the series' <see cref="SoakTrend"/>.</summary>
    public bool IsSoak => IsSoakMetric(Metric);

    /// <summary>The soak criterion this threshold judges (<c>soak.threads.growth</c> in /h and in %/h are one), or null.</summary>
    public string? SoakCriterion => IsSoak ? SoakMetricName : null;

    private string SoakMetricName => SoakNameOf(Metric);

    private static string SoakNameOf(ThresholdMetric metric) => metric switch
    {
        ThresholdMetric.SoakP99Drift => "soak.p99.drift",
        ThresholdMetric.SoakRpsDrift => "soak.rps.drift",
        ThresholdMetric.SoakMemoryGrowth => "soak.memory.growth",
        ThresholdMetric.SoakThreadsGrowth or ThresholdMetric.SoakThreadsGrowthPercent => "soak.threads.growth",
        _ => "soak.errors",
    };

    private static bool IsSoakMetric(ThresholdMetric metric) => metric is ThresholdMetric.SoakP99Drift or ThresholdMetric.SoakRpsDrift
        or ThresholdMetric.SoakMemoryGrowth or ThresholdMetric.SoakThreadsGrowth or ThresholdMetric.SoakThreadsGrowthPercent or ThresholdMetric.SoakErrorRate;

    private static ThresholdMetric? SoakMetricOf(string name) => name switch
    {
        "soak.p99.drift" => ThresholdMetric.SoakP99Drift,
        "soak.rps.drift" => ThresholdMetric.SoakRpsDrift,
        "soak.memory.growth" => ThresholdMetric.SoakMemoryGrowth,
        "soak.threads.growth" => ThresholdMetric.SoakThreadsGrowth,
        "soak.errors" => ThresholdMetric.SoakErrorRate,
        _ => null,
    };

    // Drifts are in % (the unit may be left out) and may be negative; growths are per hour; errors a rate in %.
    private static (ThresholdMetric Metric, double Limit) SoakLimit(string expression, ThresholdMetric metric, double value, string unit)
    {
        var name = SoakNameOf(metric);
        return (metric, unit) switch
        {
            (ThresholdMetric.SoakP99Drift or ThresholdMetric.SoakRpsDrift, "" or "%") => (metric, value),
            (ThresholdMetric.SoakMemoryGrowth, "%/h") => (metric, value),
            (ThresholdMetric.SoakThreadsGrowth, "/h") => (metric, value),
            (ThresholdMetric.SoakThreadsGrowth, "%/h") => (ThresholdMetric.SoakThreadsGrowthPercent, value),
            (ThresholdMetric.SoakErrorRate, "%") => (metric, value),
            _ => throw Error(expression, metric switch
            {
                ThresholdMetric.SoakMemoryGrowth => $"'{name}' is in %/h (e.g. soak.memory.growth<2%/h), not '{unit}'",
                ThresholdMetric.SoakThreadsGrowth => $"'{name}' is in /h (threads per hour) or %/h, not '{unit}'",
                ThresholdMetric.SoakErrorRate => $"'{name}' is a rate in % (e.g. soak.errors<0.1%), not '{unit}'",
                _ => $"'{name}' is a change in % (e.g. {name}<10%), not '{unit}'",
            }),
        };
    }

    private double? MeasureSoak(SoakTrend soak) => Metric switch
    {
        ThresholdMetric.SoakP99Drift => soak.P99DriftPercent,
        ThresholdMetric.SoakRpsDrift => soak.RpsDriftPercent,
        ThresholdMetric.SoakMemoryGrowth => soak.MemoryGrowthPercentPerHour,
        ThresholdMetric.SoakThreadsGrowth => soak.ThreadsGrowthPerHour,
        ThresholdMetric.SoakThreadsGrowthPercent => soak.ThreadsGrowthPercentPerHour,
        _ => soak.ErrorRate * 100,
    };

    /// <summary>The limit as written: <c>10 %</c>, <c>-5 %</c>, <c>2 %/h</c>, <c>20 /h</c>.</summary>
    private string FormatSoakLimit() => Format.Plain(Limit) + Metric switch
    {
        ThresholdMetric.SoakMemoryGrowth or ThresholdMetric.SoakThreadsGrowthPercent => " %/h",
        ThresholdMetric.SoakThreadsGrowth => " /h",
        _ => " %",
    };

    private string FormatSoakValue(double value) => Metric switch
    {
        ThresholdMetric.SoakP99Drift or ThresholdMetric.SoakRpsDrift => Format.Change(value),
        ThresholdMetric.SoakMemoryGrowth or ThresholdMetric.SoakThreadsGrowthPercent => Format.Number(value) + " %/h",
        ThresholdMetric.SoakThreadsGrowth => Format.Number(value) + " /h",
        _ => Format.Number(value) + " %",
    };

    /// <summary>
    /// Why this soak criterion is not judged on the series' span, in plain words; null when it is. A growth per hour
    /// needs a growth window of <see cref="SoakTrend.MinGrowthWindowSeconds"/>, a drift windows of
    /// <see cref="SoakTrend.MinDriftWindowSeconds"/> each; <c>soak.errors</c> is always judged (docs/report.md, "Soak").
    /// </summary>
    public string? NotJudgedBecause(SoakTrend soak)
    {
        ArgumentNullException.ThrowIfNull(soak);
        var span = Format.Duration(soak.SpanTo - soak.SpanFrom);
        switch (Metric)
        {
            case ThresholdMetric.SoakMemoryGrowth or ThresholdMetric.SoakThreadsGrowth or ThresholdMetric.SoakThreadsGrowthPercent
                when soak.GrowthWindowSeconds < SoakTrend.MinGrowthWindowSeconds:
                return $"{(Metric == ThresholdMetric.SoakMemoryGrowth ? "memory growth" : "thread growth")} not judged: the growth window (the second half of "
                    + $"the {span} measured) was {Format.Duration(soak.GrowthWindowSeconds)}; a growth per hour needs at least "
                    + $"{Format.Duration(SoakTrend.MinGrowthWindowSeconds)} of it (a soak of {Format.Duration(2 * SoakTrend.MinGrowthWindowSeconds)} after the warm-up), "
                    + "or it reads a working set still settling as a leak";
            case ThresholdMetric.SoakP99Drift or ThresholdMetric.SoakRpsDrift when soak.DriftWindowSeconds < SoakTrend.MinDriftWindowSeconds:
                var share = Format.Plain(soak.WindowFraction * 100) + " %";
                var needed = (int)Math.Ceiling(SoakTrend.MinDriftWindowSeconds / soak.WindowFraction);
                return $"{(Metric == ThresholdMetric.SoakP99Drift ? "p99" : "req/s")} drift not judged: each window (the first and last {share} of the {span} measured) "
                    + $"was {Format.Duration(soak.DriftWindowSeconds)}; a drift needs at least {Format.Duration(SoakTrend.MinDriftWindowSeconds)} in each "
                    + $"(a soak of {Format.Duration(needed)} after the warm-up)";
            default:
                return null;
        }
    }

    /// <summary>
    /// The soak figure in plain words, e.g. "p99 rose 4.2 % from the first 10 % (312 ms) to the last 10 % (325 ms)";
    /// why it is missing when it was not measured.
    /// </summary>
    public string DescribeSoak(SoakTrend soak)
    {
        ArgumentNullException.ThrowIfNull(soak);
        var share = Format.Plain(soak.WindowFraction * 100) + " %";
        string Moved(double change, string up, string down) => (change >= 0 ? up : down) + " " + Format.Number(Math.Abs(change)) + " %";
        if (MeasureSoak(soak) is not { } value)
        {
            return Metric switch
            {
                ThresholdMetric.SoakP99Drift when !soak.HasWindows => "p99 drift: the series has too few seconds after its warm-up for two windows",
                ThresholdMetric.SoakP99Drift => $"p99 drift: no successful request in the first or last {share}",
                ThresholdMetric.SoakRpsDrift => $"req/s drift: no successful request in the first {share}, or too few seconds for two windows",
                ThresholdMetric.SoakMemoryGrowth => "memory growth: fewer than two working-set scrapes (no server samples?)",
                ThresholdMetric.SoakErrorRate => "errors: no request completed after the warm-up",
                _ => "thread growth: fewer than two thread-count scrapes (no server samples?)",
            };
        }

        return Metric switch
        {
            ThresholdMetric.SoakP99Drift =>
                $"p99 {Moved(value, "rose", "fell")} from the first {share} ({Format.Number(soak.First!.P99Ms)} ms) to the last {share} ({Format.Number(soak.Last!.P99Ms)} ms)",
            ThresholdMetric.SoakRpsDrift =>
                $"successful req/s {Moved(value, "rose", "fell")} from the first {share} ({Format.Number(soak.First!.SuccessesPerSecond)}) to the last {share} ({Format.Number(soak.Last!.SuccessesPerSecond)})",
            ThresholdMetric.SoakMemoryGrowth =>
                $"working set {(value >= 0 ? "grew" : "shrank")} {Format.Number(Math.Abs(value))} %/h (slope {Format.Number(soak.MemoryTrend!.Slope * 3600)} MB/h fitted over the second half, over {Format.Number(soak.First!.WorkingSetMb)} MB in the first {share})",
            ThresholdMetric.SoakThreadsGrowth =>
                $"OS threads {(value >= 0 ? "grew" : "fell")} by {Format.Number(Math.Abs(value))} per hour (slope fitted over the second half; {Format.Number(soak.First?.Threads)} in the first {share})",
            ThresholdMetric.SoakThreadsGrowthPercent =>
                $"OS threads {(value >= 0 ? "grew" : "fell")} {Format.Number(Math.Abs(value))} %/h (slope {Format.Number(soak.ThreadsGrowthPerHour)} threads/h fitted over the second half, over {Format.Number(soak.First!.Threads)} in the first {share})",
            _ => $"{Format.Number(value)} % of the requests failed after the warm-up",
        };
    }
}
