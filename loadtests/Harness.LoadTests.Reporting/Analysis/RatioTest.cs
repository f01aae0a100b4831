using System.Collections.Concurrent;
using MathNet.Numerics.Distributions;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>One measurement of a figure: the process that made it and its round (0 when the run had one round).</summary>
internal readonly record struct Observation(int Round, double Value);

/// <summary>How a <see cref="RatioTest"/> measured the noise of its difference.</summary>
internal enum RatioMethod
{
    /// <summary>
    /// Both arms ran once in each of the same rounds: the difference is taken round by round, so what a round shares
    /// (the machine's load at that time, the order of operations in it) cancels. Degrees of freedom: rounds − 1.
    /// </summary>
    PairedByRound,

    /// <summary>
    /// Arms that cannot be paired (different runs, unequal rounds): Student's two-sample interval with the variance
    /// pooled over these two arms alone. Degrees of freedom: n₁ + n₂ − 2.
    /// </summary>
    PooledTwoArms,
}

/// <summary>
/// One arm's figure against another's, on the logarithm so that a ratio becomes a difference: the estimate of
/// ln(value ÷ baseline), its standard error and degrees of freedom. The noise comes from the two arms compared and
/// from nothing else, so a noisy mode elsewhere in the group neither widens nor narrows this comparison
/// (docs/report.md, "Verdicts").
/// </summary>
/// <param name="LogRatio">The estimated ln(value ÷ baseline).</param>
/// <param name="StandardError">Its standard error; always positive (identical repetitions give no test).</param>
/// <param name="Count">Repetitions of the compared arm.</param>
/// <param name="BaselineCount">Repetitions of the baseline arm.</param>
internal sealed record RatioTest(double LogRatio, double StandardError, int DegreesOfFreedom, RatioMethod Method, int Count, int BaselineCount)
{
    // How many points of the chi-square distribution average the power (a midpoint rule over its quantiles).
    private const int PowerQuadrature = 256;

    // Per degrees of freedom, √(V/df) at the quadrature's points: the same for every comparison of a run, and each is a
    // root-finding; a detectable change asks for them some 40 times per comparison, and the report per format.
    private static readonly ConcurrentDictionary<int, double[]> _chiScales = new();

    /// <summary>exp(<see cref="LogRatio"/>): the ratio of the two arms' geometric means.</summary>
    public double Ratio => Math.Exp(LogRatio);

    /// <summary>
    /// The test of <paramref name="value"/> against <paramref name="baseline"/>, or why there is none:
    /// <see cref="RatioVerdict.Unknown"/> when an arm has no value, <see cref="RatioVerdict.SingleRun"/> when each has
    /// one (nothing measures the noise), <see cref="RatioVerdict.NoInterval"/> when a value is not positive (no
    /// logarithm) or every repetition was identical (a noise of exactly 0 is a rounding, not a measurement).
    /// </summary>
    public static (RatioTest? Test, RatioVerdict Missing) Of(IReadOnlyList<Observation> value, IReadOnlyList<Observation> baseline)
    {
        ArgumentNullException.ThrowIfNull(value);
        ArgumentNullException.ThrowIfNull(baseline);
        if (value.Count == 0 || baseline.Count == 0)
        {
            return (null, RatioVerdict.Unknown);
        }

        if (value.Count == 1 && baseline.Count == 1)
        {
            return (null, RatioVerdict.SingleRun);
        }

        if (value.Any(o => !(o.Value > 0)) || baseline.Any(o => !(o.Value > 0)))
        {
            return (null, RatioVerdict.NoInterval);
        }

        var test = Paired(value, baseline) ?? Pooled(value, baseline);
        return test is { StandardError: > 0 } && double.IsFinite(test.StandardError) ? (test, RatioVerdict.Unknown) : (null, RatioVerdict.NoInterval);
    }

    /// <summary>The two-sided interval at <paramref name="confidence"/>: exp(d ± t·se).</summary>
    public RatioEstimate Interval(double confidence)
    {
        var half = RepetitionNoise.TwoSidedT(DegreesOfFreedom, confidence) * StandardError;
        return new RatioEstimate(Ratio, Math.Exp(LogRatio - half), Math.Exp(LogRatio + half), confidence);
    }

    /// <summary>
    /// The smallest α at which the two-sided interval at 1 − α lies wholly outside [1 − <paramref name="tolerance"/>,
    /// 1 + <paramref name="tolerance"/>], on either side: 2 × the one-sided p of the nearer band edge. What Holm's
    /// procedure orders a family by (<see cref="VerdictFamily"/>).
    /// </summary>
    public double PBeyond(double tolerance)
    {
        var above = UpperTail((LogRatio - Math.Log(1 + tolerance)) / StandardError);
        var below = UpperTail((Math.Log(1 - tolerance) - LogRatio) / StandardError);
        return Math.Min(1, 2 * Math.Min(above, below));
    }

    /// <summary>
    /// One-sided p of "not worse than <paramref name="limit"/>" (for latency: ratio ≤ 1 + limit; for throughput:
    /// ratio ≥ 1 − limit): small when the figure got worse by more than the limit. The gate's test.
    /// </summary>
    public double PWorseThan(double limit, bool lowerIsBetter)
    {
        var worse = lowerIsBetter ? LogRatio - Math.Log(1 + limit) : Math.Log(1 - limit) - LogRatio;
        return UpperTail(worse / StandardError);
    }

    /// <summary>The one-sided bound at <paramref name="confidence"/> on the worse side: the ratio it could be, at worst.</summary>
    public double WorstBound(double confidence, bool lowerIsBetter)
    {
        var t = StudentT.InvCDF(0, 1, DegreesOfFreedom, confidence);
        return Math.Exp(lowerIsBetter ? LogRatio + (t * StandardError) : LogRatio - (t * StandardError));
    }

    /// <summary>
    /// How often a comparison with this noise and these repetitions puts its interval at <paramref name="confidence"/>
    /// wholly beyond ±<paramref name="tolerance"/> when the truth is a change of <paramref name="change"/> (0.2 = 20 %):
    /// its power. The estimated standard error is itself noisy (few degrees of freedom), so the chance is averaged
    /// over its chi-square distribution: P(Z + δ &gt; t·√(V/df)), δ = (ln(1 + change) − ln(1 + tolerance)) ÷ se.
    /// </summary>
    public double Power(double change, double tolerance, double confidence)
    {
        var t = RepetitionNoise.TwoSidedT(DegreesOfFreedom, confidence);
        var shift = (Math.Log(1 + Math.Abs(change)) - Math.Log(1 + tolerance)) / StandardError;
        double sum = 0;
        foreach (var scale in ChiScales(DegreesOfFreedom))
        {
            sum += Normal.CDF(0, 1, shift - (t * scale));
        }

        return sum / PowerQuadrature;
    }

    /// <summary>
    /// The smallest change (0.2 = 20 %) this comparison finds with probability <paramref name="power"/> at
    /// <paramref name="confidence"/>: what size of difference the run could have told from none. Infinite past 100×.
    /// </summary>
    public double Detectable(double tolerance, double confidence, double power = 0.8)
    {
        double low = tolerance, high = 99;
        if (Power(high, tolerance, confidence) < power)
        {
            return double.PositiveInfinity;
        }

        // On the logarithm: a change of 1 % and of 1,000 % are found in the same number of halvings.
        for (var i = 0; i < 40; i++)
        {
            var middle = Math.Exp((Math.Log(1 + low) + Math.Log(1 + high)) / 2) - 1;
            (low, high) = Power(middle, tolerance, confidence) >= power ? (low, middle) : (middle, high);
        }

        return high;
    }

    private static double[] ChiScales(int degrees) => _chiScales.GetOrAdd(degrees, df =>
        [.. Enumerable.Range(0, PowerQuadrature).Select(i => Math.Sqrt(ChiSquared.InvCDF(df, (i + 0.5) / PowerQuadrature) / df))]);

    private double UpperTail(double t) => 1 - StudentT.CDF(0, 1, DegreesOfFreedom, t);

    // Every round of each arm has exactly one value, and the arms ran in the same rounds (at least two).
    private static RatioTest? Paired(IReadOnlyList<Observation> value, IReadOnlyList<Observation> baseline)
    {
        if (value.Count != baseline.Count || value.Count < 2 || value.Any(o => o.Round <= 0))
        {
            return null;
        }

        var byRound = baseline.GroupBy(o => o.Round).ToDictionary(g => g.Key, g => g.ToList());
        if (byRound.Values.Any(g => g.Count != 1) || value.Select(o => o.Round).Distinct().Count() != value.Count
            || value.Any(o => !byRound.ContainsKey(o.Round)))
        {
            return null;
        }

        var differences = value.Select(o => Math.Log(o.Value) - Math.Log(byRound[o.Round][0].Value)).ToArray();
        var mean = differences.Average();
        var sd = Math.Sqrt(differences.Sum(d => (d - mean) * (d - mean)) / (differences.Length - 1));
        return new RatioTest(mean, sd / Math.Sqrt(differences.Length), differences.Length - 1, RatioMethod.PairedByRound, value.Count, baseline.Count);
    }

    private static RatioTest Pooled(IReadOnlyList<Observation> value, IReadOnlyList<Observation> baseline)
    {
        var a = value.Select(o => Math.Log(o.Value)).ToArray();
        var b = baseline.Select(o => Math.Log(o.Value)).ToArray();
        var (meanA, meanB) = (a.Average(), b.Average());
        var squares = a.Sum(x => (x - meanA) * (x - meanA)) + b.Sum(x => (x - meanB) * (x - meanB));
        var degrees = a.Length + b.Length - 2;
        var se = Math.Sqrt(squares / degrees * ((1.0 / a.Length) + (1.0 / b.Length)));
        return new RatioTest(meanA - meanB, se, degrees, RatioMethod.PooledTwoArms, a.Length, b.Length);
    }
}
