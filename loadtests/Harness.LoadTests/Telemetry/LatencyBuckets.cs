namespace Harness.LoadTests.Telemetry;

/// <summary>
/// The upper bounds, in seconds, of the successes' latency histogram (<c>harness_load_latency_seconds</c>), the same for
/// Prometheus and OTLP. Roughly 1-1.5-2-3-5-7.5 per decade from 0.5 ms to a minute, so <c>histogram_quantile</c>
/// interpolates within a bucket at most 1.7 times as wide as its lower bound, close enough for a dashboard's p99
/// curve; the report's exact figures come from the run's HdrHistograms, not from these.
/// </summary>
internal static class LatencyBuckets
{
    public static readonly IReadOnlyList<double> Bounds =
    [
        0.0005, 0.001, 0.0015, 0.002, 0.003, 0.005, 0.0075,
        0.01, 0.015, 0.02, 0.03, 0.05, 0.075,
        0.1, 0.15, 0.2, 0.3, 0.5, 0.75,
        1, 1.5, 2, 3, 5, 7.5,
        10, 15, 20, 30, 60,
    ];

    /// <summary>The bucket a latency falls in: the first bound at or above it (bounds are inclusive), or <c>Bounds.Count</c> for +Inf.</summary>
    public static int IndexOf(double seconds)
    {
        var (low, high) = (0, Bounds.Count);
        while (low < high)
        {
            var middle = (low + high) / 2;
            if (Bounds[middle] < seconds)
            {
                low = middle + 1;
            }
            else
            {
                high = middle;
            }
        }

        return low;
    }
}
