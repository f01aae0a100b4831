namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>
/// One figure over a mode's repetitions: their median and how far it can be trusted. Under 5 repetitions the bounds
/// are the smallest and largest value (<see cref="IsRange"/>); from 5 on they are the distribution-free confidence
/// interval of the median from order statistics (docs/report.md, "Repetitions").
/// </summary>
/// <param name="Count">Repetitions that measured the figure.</param>
/// <param name="Confidence">The interval's exact coverage (e.g. 0.9375 for 5 values), or null for a plain min–max range.</param>
/// <param name="AaSpread">The run's own A/A spread: largest ÷ smallest − 1 (null when the smallest is 0).</param>
public sealed record Spread(double Median, double Low, double High, int Count, double? Confidence, double? AaSpread)
{
    /// <summary>From this many values on, the bounds are a confidence interval of the median rather than the range.</summary>
    public const int IntervalFrom = 5;

    public bool IsRange => Confidence is null;

    /// <summary>null when there is no value.</summary>
    public static Spread? Of(IEnumerable<double> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        var sorted = values.Where(v => !double.IsNaN(v)).Order().ToArray();
        if (sorted.Length == 0)
        {
            return null;
        }

        var median = MedianOf(sorted);
        double? aa = sorted[0] > 0 ? (sorted[^1] / sorted[0]) - 1 : sorted[^1] == 0 ? 0 : null;
        if (sorted.Length < IntervalFrom)
        {
            return new Spread(median, sorted[0], sorted[^1], sorted.Length, null, aa);
        }

        var (k, confidence) = MedianInterval(sorted.Length);
        return new Spread(median, sorted[k - 1], sorted[sorted.Length - k], sorted.Length, confidence, aa);
    }

    /// <summary>The middle value, or the mean of the two middle values; <paramref name="sorted"/> must be in order.</summary>
    public static double MedianOf(IReadOnlyList<double> sorted)
    {
        ArgumentNullException.ThrowIfNull(sorted);
        ArgumentOutOfRangeException.ThrowIfZero(sorted.Count);
        var middle = sorted.Count / 2;
        return sorted.Count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /// <summary>
    /// The distribution-free interval [x(k), x(n+1−k)] of the median of n values: its coverage is
    /// 1 − 2·P(B ≤ k − 1) for B ~ Binomial(n, ½), whatever the values' distribution. k is the largest whose coverage is
    /// at least 95 %; when even k = 1 (min–max) falls short (n ≤ 5), k = 1 and the coverage is what it is (93.75 % for 5).
    /// </summary>
    public static (int K, double Confidence) MedianInterval(int n)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(n, 1);
        double Coverage(int k) => 1 - (2 * BinomialHalfCdf(n, k - 1));
        var best = 1;
        for (var k = 2; k <= (n + 1) / 2 && Coverage(k) >= 0.95; k++)
        {
            best = k;
        }

        return (best, Coverage(best));
    }

    // P(B ≤ x) for B ~ Binomial(n, ½).
    private static double BinomialHalfCdf(int n, int x)
    {
        double sum = 0, term = Math.Pow(0.5, n);
        for (var i = 0; i <= x; i++)
        {
            sum += term;
            term = term * (n - i) / (i + 1);
        }

        return sum;
    }
}

/// <summary>What a ratio between two modes says, once its spread is known.</summary>
public enum RatioVerdict
{
    /// <summary>The baseline itself.</summary>
    Base,

    /// <summary>Its interval excludes 1 on the better side, and the ratio is better by more than 5 %.</summary>
    Better,

    /// <summary>Its interval excludes 1 on the worse side, and the ratio is worse by more than 5 %.</summary>
    Worse,

    /// <summary>Its interval excludes 1, but the ratio is within 5 % of it: a real difference too small to colour.</summary>
    Same,

    /// <summary>Its interval holds 1 (or the noise could not be measured): the run cannot tell the two modes apart.</summary>
    WithinNoise,

    /// <summary>
    /// Neither mode was repeated: one process each, so nothing tells the difference from noise; never coloured. Across
    /// runs also one process against repetitions whose noise cannot be measured.
    /// </summary>
    SingleRun,

    /// <summary>Not measured in one of the two modes.</summary>
    Unknown,
}

/// <summary>
/// A mode's figure ÷ the baseline mode's: the ratio of their medians, and its spread. Between modes of one run the
/// spread is the interval of <see cref="RepetitionNoise.Ratio"/> at <see cref="Confidence"/> (docs/report.md,
/// "Repetitions"); across runs (<c>harness compare</c>, <see cref="AcrossRuns"/>) it is the same interval, with the
/// noise pooled over both runs' repetitions (docs/compare.md).
/// </summary>
/// <param name="HasSpread">True when the ratio has bounds (either mode repeated); without them the bounds equal the ratio.</param>
public sealed record ModeRatio(double? Median, double? Low, double? High, bool HasSpread, RatioVerdict Verdict)
{
    /// <summary>A ratio further than this from 1 is coloured better or worse.</summary>
    public const double Tolerance = 0.05;

    /// <summary>The confidence of a ratio's interval between modes of one run.</summary>
    public const double Confidence = 0.95;

    public static ModeRatio Base { get; } = new(1, 1, 1, false, RatioVerdict.Base);

    /// <param name="interval">
    /// The ratio's interval from the run's repetition noise; when given, it is the spread. Without it the spread is the
    /// bounds' most pessimistic ratio; a single run of each is <see cref="RatioVerdict.SingleRun"/>.
    /// </param>
    public static ModeRatio Between(Spread? value, Spread? baseline, bool lowerIsBetter, RatioEstimate? interval = null)
    {
        if (value is null || baseline is null)
        {
            return new ModeRatio(null, null, null, false, RatioVerdict.Unknown);
        }

        var median = Ratio.Of(value.Median, baseline.Median);
        var hasSpread = value.Count > 1 || baseline.Count > 1;
        if (!hasSpread)
        {
            return new ModeRatio(median, median, median, false, median is null ? RatioVerdict.Unknown : RatioVerdict.SingleRun);
        }

        var low = interval?.Low ?? Ratio.Of(value.Low, baseline.High);
        var high = interval?.High ?? Ratio.Of(value.High, baseline.Low);
        return new ModeRatio(median, low, high, true, VerdictOf(median, low, high, lowerIsBetter));
    }

    /// <summary>
    /// Run B's figure ÷ run A's for one compared series (<c>harness compare</c>), judged as the modes of one run are:
    /// the 95 % interval of <paramref name="noise"/> (pooled over both runs, <see cref="RepetitionNoise.Across"/>);
    /// coloured only when it excludes 1 and the ratio is more than 5 % from 1. Never the extremes: a single process
    /// on each side is <see cref="RatioVerdict.SingleRun"/> (whatever other series' noise), and so is one side's
    /// single process without noise to judge it by; repetitions whose noise cannot be measured (a figure of 0) are
    /// <see cref="RatioVerdict.WithinNoise"/>. Only a ratio with an interval has <see cref="HasSpread"/>.
    /// </summary>
    /// <param name="value">Run B's figure, one value per repetition.</param>
    /// <param name="baseline">Run A's figure, one value per repetition.</param>
    public static ModeRatio AcrossRuns(IReadOnlyList<double> value, IReadOnlyList<double> baseline, RepetitionNoise? noise, bool lowerIsBetter)
    {
        ArgumentNullException.ThrowIfNull(value);
        ArgumentNullException.ThrowIfNull(baseline);
        var (b, a) = (Spread.Of(value), Spread.Of(baseline));
        if (b is null || a is null || Ratio.Of(b.Median, a.Median) is not { } median)
        {
            return new ModeRatio(null, null, null, false, RatioVerdict.Unknown);
        }

        var interval = b.Count > 1 || a.Count > 1 ? noise?.Ratio(value, baseline, Confidence) : null;
        if (interval is null)
        {
            return new ModeRatio(median, median, median, false, b.Count > 1 && a.Count > 1 ? RatioVerdict.WithinNoise : RatioVerdict.SingleRun);
        }

        return Between(b, a, lowerIsBetter, interval);
    }

    private static RatioVerdict VerdictOf(double? median, double? low, double? high, bool lowerIsBetter)
    {
        if (median is not { } m)
        {
            return RatioVerdict.Unknown;
        }

        // An unbounded high end (the baseline's low is 0) crosses 1 when the low end is below it.
        if ((low is not { } l || l <= 1) && (high is not { } h || h >= 1))
        {
            return RatioVerdict.WithinNoise;
        }

        var better = lowerIsBetter ? m < 1 - Tolerance : m > 1 + Tolerance;
        var worse = lowerIsBetter ? m > 1 + Tolerance : m < 1 - Tolerance;
        return better ? RatioVerdict.Better : worse ? RatioVerdict.Worse : RatioVerdict.Same;
    }
}
