using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting;

/// <summary>Latency figures in milliseconds, read from one histogram (percentiles are never averaged).</summary>
public sealed record LatencyStats(long Count, double MeanMs, double P50Ms, double P90Ms, double P99Ms, double MaxMs)
{
    public static readonly LatencyStats Empty = new(0, 0, 0, 0, 0, 0);

    public static LatencyStats From(LatencyHistogram histogram)
    {
        ArgumentNullException.ThrowIfNull(histogram);
        return histogram.TotalCount == 0
            ? Empty
            : new LatencyStats(
                histogram.TotalCount,
                histogram.MeanMicroseconds / 1000,
                histogram.ValueAtPercentile(50) / 1000.0,
                histogram.ValueAtPercentile(90) / 1000.0,
                histogram.ValueAtPercentile(99) / 1000.0,
                histogram.MaxMicroseconds / 1000.0);
    }
}
