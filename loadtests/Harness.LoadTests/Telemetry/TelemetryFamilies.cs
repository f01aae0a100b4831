using Harness.Metrics;

namespace Harness.LoadTests.Telemetry;

/// <summary>Every family the runner exports, with its type and help, so Prometheus' page and OTLP's instruments say the same.</summary>
internal static class TelemetryFamilies
{
    public const string Counter = "counter";
    public const string Gauge = "gauge";
    public const string Histogram = "histogram";
    public const string Summary = "summary";

    public static readonly Family RunInfo = new(MetricNames.LoadRunInfo, Gauge, "Constant 1; the labels name the run: its id, profile, load model and agent.");

    public static readonly Family Phase = new(MetricNames.LoadPhase, Gauge, "1 for the phase the run is in (idle between series, warm_up, measured, draining), 0 for the others.");

    public static readonly Family Requests = new(MetricNames.LoadRequestsTotal, Counter, "Requests completed, by series and status (successes under OK), warm-up included.");

    public static readonly Family Failures = new(MetricNames.LoadFailuresTotal, Counter, "Requests that failed, by series and status, warm-up included.");

    public static readonly Family Latency = new(MetricNames.LoadLatencySeconds, Histogram, "Latency of the successful requests, warm-up included.");

    /// <summary>A summary in Prometheus (a one-second window, as client libraries' summaries slide theirs), a gauge with a quantile attribute over OTLP, which has no summaries.</summary>
    public static readonly Family LastSecondLatency = new(MetricNames.LoadLastSecondLatencySeconds, Summary,
        "p50 and p99 of the last second's successful requests (HdrHistogram, within 0.1 %), while the series runs; _sum and _count of all its successes.");

    public static readonly Family Users = new(MetricNames.LoadUsers, Gauge, "Closed model: virtual users the profile asks for now, its target (0 while requests drain).");

    public static readonly Family ArrivalRate = new(MetricNames.LoadArrivalRate, Gauge, "Open model: requests started per second now (0 while requests drain).");

    public static readonly Family InFlight = new(MetricNames.LoadRequestsInFlight, Gauge, "Requests sent and not yet complete.");

    /// <summary>The runner's own process, as <see cref="Running.RunnerSampler"/> reads it into the run's files.</summary>
    public static readonly IReadOnlyList<Family> Runner =
    [
        new(MetricNames.RunnerCpuSecondsTotal, Counter, "User and system CPU time of the harness process."),
        new(MetricNames.RunnerWorkingSetBytes, Gauge, "Working set of the harness process."),
        new(MetricNames.RunnerThreads, Gauge, "OS threads of the harness process."),
        new(MetricNames.RunnerGcHeapBytes, Gauge, "Bytes of the harness process's GC heap after its last collection."),
    ];
}

/// <summary>A metric family: its Prometheus name and type, its help, and its OTLP instrument name and unit.</summary>
internal sealed record Family(string Name, string Type, string Help)
{
    // Unit suffixes of Prometheus names and the OTLP units whose standard translation (the OpenTelemetry Collector's
    // Prometheus exporters, Prometheus' own OTLP receiver) appends them again, with _total for a counter.
    private static readonly (string Suffix, string Unit)[] Units = [("_seconds", "s"), ("_bytes", "By"), ("_per_second", "1/s")];

    /// <summary>The OTLP instrument's name: <see cref="Name"/> without <c>_total</c> and its unit's suffix, which a backend's translation adds back.</summary>
    public string OtlpName => OtlpNameAndUnit().Name;

    /// <summary>The OTLP instrument's unit (UCUM): <c>s</c>, <c>By</c>, <c>1/s</c>; null for a count.</summary>
    public string? OtlpUnit => OtlpNameAndUnit().Unit;

    private (string Name, string? Unit) OtlpNameAndUnit()
    {
        var name = Name.EndsWith("_total", StringComparison.Ordinal) ? Name[..^"_total".Length] : Name;
        foreach (var (suffix, unit) in Units)
        {
            if (name.EndsWith(suffix, StringComparison.Ordinal))
            {
                return (name[..^suffix.Length], unit);
            }
        }

        return (name, null);
    }
}
