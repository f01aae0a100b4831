using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>One point of a percentile spectrum: the latency at or below which <see cref="Percentile"/> % of the values fall.</summary>
internal sealed record SpectrumPoint(double Percentile, double Ms);

/// <summary>
/// A histogram's percentile distribution, as HdrHistogram prints and plots it: percentiles stepped
/// <see cref="TicksPerHalfDistance"/> times per halving of the distance to 100 % (0, 10 … 50, 55 … 75, 77.5 … 87.5 …),
/// so each "nine" gets the same number of points on the 1 ÷ (1 − p) axis. Points stop where 1 ÷ (1 − p) exceeds the
/// count of values: beyond, one value in fewer than one request would decide it, which only the maximum does.
/// </summary>
/// <param name="Count">Values in the histogram.</param>
/// <param name="MaxMs">The exact maximum, which ends the curve at 1 ÷ (1 − p) = <paramref name="Count"/>.</param>
internal sealed record PercentileSpectrum(IReadOnlyList<SpectrumPoint> Points, double MaxMs, long Count)
{
    /// <summary>HdrHistogram's <c>outputPercentileDistribution</c> default.</summary>
    public const int TicksPerHalfDistance = 5;

    public static PercentileSpectrum Empty { get; } = new([], 0, 0);

    public static PercentileSpectrum Of(LatencyHistogram histogram)
    {
        ArgumentNullException.ThrowIfNull(histogram);
        if (histogram.TotalCount == 0)
        {
            return Empty;
        }

        var levels = Levels(histogram.TotalCount).ToArray();
        var values = histogram.ValuesAtPercentiles(levels);
        return new PercentileSpectrum(
            [.. levels.Select((p, i) => new SpectrumPoint(p, values[i] / 1000.0))], histogram.MaxMicroseconds / 1000.0, histogram.TotalCount);
    }

    /// <summary>
    /// 0, then for each halving h = 0, 1, 2 … of the distance to 100 %, <see cref="TicksPerHalfDistance"/> equal steps
    /// from 100·(1 − 2⁻ʰ) to 100·(1 − 2⁻⁽ʰ⁺¹⁾), while 1 ÷ (1 − p) ≤ <paramref name="count"/>.
    /// </summary>
    public static IEnumerable<double> Levels(long count)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(count);
        yield return 0;
        for (var h = 0; h < 62; h++)
        {
            double from = 100 * (1 - Math.Pow(2, -h)), to = 100 * (1 - Math.Pow(2, -(h + 1)));
            for (var tick = 1; tick <= TicksPerHalfDistance; tick++)
            {
                var level = from + ((to - from) * tick / TicksPerHalfDistance);
                if (1 / (1 - (level / 100)) > count)
                {
                    yield break;
                }

                yield return level;
            }
        }
    }
}
