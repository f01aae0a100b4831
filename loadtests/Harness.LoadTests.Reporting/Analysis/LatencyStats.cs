using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>Latency figures in milliseconds, read from one histogram (percentiles are never averaged).</summary>
/// <param name="P999Ms">p99.9: one request in a thousand was slower.</param>
/// <param name="P9999Ms">p99.99: one request in ten thousand was slower.</param>
internal sealed record LatencyStats(long Count, double MeanMs, double P50Ms, double P90Ms, double P99Ms, double P999Ms, double P9999Ms, double MaxMs)
{
    public static readonly LatencyStats Empty = new(0, 0, 0, 0, 0, 0, 0, 0);

    public static LatencyStats From(LatencyHistogram histogram)
    {
        ArgumentNullException.ThrowIfNull(histogram);
        if (histogram.TotalCount == 0)
        {
            return Empty;
        }

        var p = histogram.ValuesAtPercentiles([50, 90, 99, 99.9, 99.99]);
        return new LatencyStats(
            histogram.TotalCount, histogram.MeanMicroseconds / 1000, p[0] / 1000.0, p[1] / 1000.0, p[2] / 1000.0, p[3] / 1000.0, p[4] / 1000.0,
            histogram.MaxMicroseconds / 1000.0);
    }
}
