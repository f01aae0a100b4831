using System.Collections.Concurrent;
using MathNet.Numerics.Distributions;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>
/// How much one figure (a mean, a p99, req/s) moves between processes of the same mode in one run: the pooled
/// standard deviation of the figure's logarithm about each mode's own mean, over every repeated mode of a comparison.
/// On a log scale a process that is 10 % slower is the same step whatever the figure's size, and a ratio of two
/// modes becomes a difference, which is what a t interval needs. It measures the run's noise floor (the glance's
/// sentence, <see cref="RunNoiseFloor"/>); the intervals that carry verdicts are <see cref="RatioTest"/>'s, from the
/// two arms compared alone.
/// </summary>
/// <param name="LogSd">Pooled standard deviation of ln(figure) between repetitions of one mode.</param>
/// <param name="DegreesOfFreedom">Σ (repetitions − 1) over the modes pooled.</param>
internal sealed record RepetitionNoise(double LogSd, int DegreesOfFreedom)
{
    // Student's quantile is found by root-finding; a run asks for few distinct (df, level) pairs, many times.
    private static readonly ConcurrentDictionary<(int, double), double> _quantiles = new();

    /// <summary>One process's typical distance from its mode's centre, as a fraction (0.1 = 10 %).</summary>
    public double Fraction => Math.Exp(LogSd) - 1;

    /// <summary>
    /// The noise pooled over <paramref name="modes"/>, each the figure of one mode's repetitions. A mode run once
    /// adds nothing; null when no mode was repeated, or when a value is not positive (its logarithm is undefined).
    /// </summary>
    public static RepetitionNoise? Pool(IEnumerable<IReadOnlyList<double>> modes)
    {
        ArgumentNullException.ThrowIfNull(modes);
        double squares = 0;
        var degrees = 0;
        foreach (var values in modes)
        {
            if (values.Count < 2)
            {
                continue;
            }

            if (values.Any(v => !(v > 0)))
            {
                return null;
            }

            var logs = values.Select(v => Math.Log(v)).ToArray();
            var mean = logs.Average();
            squares += logs.Sum(l => (l - mean) * (l - mean));
            degrees += logs.Length - 1;
        }

        return degrees == 0 ? null : new RepetitionNoise(Math.Sqrt(squares / degrees), degrees);
    }

    /// <summary>
    /// The ratio of <paramref name="value"/>'s geometric mean to <paramref name="baseline"/>'s, with its two-sided
    /// interval at <paramref name="confidence"/>: exp(Δ ± t·s·√(1/n₁ + 1/n₂)), t from Student's distribution with this
    /// noise's degrees of freedom. Null when a value is not positive.
    /// </summary>
    public RatioEstimate? Ratio(IReadOnlyList<double> value, IReadOnlyList<double> baseline, double confidence)
    {
        ArgumentNullException.ThrowIfNull(value);
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(confidence, 0);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(confidence, 1);
        if (value.Count == 0 || baseline.Count == 0 || value.Any(v => !(v > 0)) || baseline.Any(v => !(v > 0)))
        {
            return null;
        }

        var difference = value.Average(v => Math.Log(v)) - baseline.Average(v => Math.Log(v));
        var t = TwoSidedT(DegreesOfFreedom, confidence);
        var half = t * LogSd * Math.Sqrt((1.0 / value.Count) + (1.0 / baseline.Count));
        return new RatioEstimate(Math.Exp(difference), Math.Exp(difference - half), Math.Exp(difference + half), confidence);
    }

    /// <summary>t such that a Student-t variable with <paramref name="degrees"/> lies within ±t with probability <paramref name="confidence"/>.</summary>
    public static double TwoSidedT(int degrees, double confidence) =>
        _quantiles.GetOrAdd((degrees, confidence), key => StudentT.InvCDF(0, 1, key.Item1, 1 - ((1 - key.Item2) / 2)));
}

/// <summary>A ratio of two modes' figures and its interval at <see cref="Confidence"/>.</summary>
internal sealed record RatioEstimate(double Ratio, double Low, double High, double Confidence)
{
    /// <summary>The interval does not hold 1: the two modes differ, at this confidence.</summary>
    public bool ExcludesOne => Low > 1 || High < 1;

    /// <summary>The whole interval lies within ±<paramref name="tolerance"/> of 1: any difference is smaller than that.</summary>
    public bool WithinTolerance(double tolerance) => Low >= 1 - tolerance && High <= 1 + tolerance;

    /// <summary>The interval both this and <paramref name="other"/> hold (both true together at their joint confidence).</summary>
    public RatioEstimate Intersect(RatioEstimate other, double confidence)
    {
        ArgumentNullException.ThrowIfNull(other);
        var low = Math.Max(Low, other.Low);
        var high = Math.Min(High, other.High);
        if (low > high)
        {
            // Two intervals that each cover the truth cannot be disjoint; when noise makes them so, keep the newer.
            return other with { Confidence = confidence };
        }

        return new RatioEstimate(Math.Clamp(other.Ratio, low, high), low, high, confidence);
    }
}
