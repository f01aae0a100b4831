namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>
/// One figure over a mode's repetitions: their median and how far it can be trusted. Under 5 repetitions the bounds
/// are the smallest and largest value (<see cref="IsRange"/>); from 5 on they are the distribution-free confidence
/// interval of the median from order statistics (docs/report.md, "Repetitions").
/// </summary>
/// <param name="Count">Repetitions that measured the figure.</param>
/// <param name="Confidence">The interval's exact coverage (e.g. 0.9375 for 5 values), or null for a plain min–max range.</param>
/// <param name="AaSpread">The run's own A/A spread: largest ÷ smallest − 1 (null when the smallest is 0).</param>
internal sealed record Spread(double Median, double Low, double High, int Count, double? Confidence, double? AaSpread)
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

/// <summary>What a ratio between two arms (modes, stacks, runs) says, once its interval is known.</summary>
internal enum RatioVerdict
{
    /// <summary>The baseline itself.</summary>
    Base,

    /// <summary>A judged comparison whose interval lies wholly beyond the tolerance band on the better side.</summary>
    Better,

    /// <summary>A judged comparison whose interval lies wholly beyond the tolerance band on the worse side.</summary>
    Worse,

    /// <summary>A judged comparison whose interval lies wholly within ±tolerance: no difference larger than that.</summary>
    NoDifference,

    /// <summary>
    /// A judged comparison whose interval reaches both inside and beyond the band: the run could not tell whether the
    /// difference exceeds the tolerance. Never coloured; written with what it could not exclude.
    /// </summary>
    Inconclusive,

    /// <summary>A figure that carries no verdict (not mean, p99 or req/s): its ratio and 95 % interval are shown, uncoloured.</summary>
    NotJudged,

    /// <summary>Repeated, but no interval can be computed: a figure of 0 (no logarithm), or repetitions that were identical.</summary>
    NoInterval,

    /// <summary>Each arm ran once: nothing measures the noise, so the ratio is shown and never judged.</summary>
    SingleRun,

    /// <summary>Not measured in one of the two arms.</summary>
    Unknown,
}

/// <summary>
/// An arm's figure ÷ the baseline arm's, with its interval and verdict. The interval is that of a
/// <see cref="RatioTest"/> (paired by round where the arms ran in the same rounds, else the two arms' pooled noise),
/// at 95 % for a figure that carries no verdict, and at its Holm level for one that does (<see cref="VerdictFamily"/>;
/// docs/report.md, "Verdicts"). There is no interval without a test: never the extremes of the repetitions.
/// </summary>
/// <param name="Median">The ratio: of the geometric means when there is a test, else of the medians.</param>
/// <param name="HasSpread">True when the ratio has an interval; without one the bounds equal the ratio.</param>
internal sealed record ModeRatio(double? Median, double? Low, double? High, bool HasSpread, RatioVerdict Verdict)
{
    /// <summary>A difference within ±5 % counts as none: the band a verdict's interval is read against.</summary>
    public const double Tolerance = 0.05;

    /// <summary>The confidence of an interval that carries no verdict.</summary>
    public const double Confidence = 0.95;

    public static ModeRatio Base { get; } = new(1, 1, 1, false, RatioVerdict.Base);

    /// <summary>The test behind the interval; null without one.</summary>
    public RatioTest? Test { get; init; }

    /// <summary>The interval's confidence (0.95, or the Holm level of a judged comparison); null without an interval.</summary>
    public double? Level { get; init; }

    /// <summary>
    /// <paramref name="value"/>'s figure ÷ <paramref name="baseline"/>'s, with its 95 % interval and no verdict yet
    /// (<see cref="RatioVerdict.NotJudged"/>), or what it lacks (single run, no interval, unknown).
    /// </summary>
    public static ModeRatio Of(IReadOnlyList<Observation> value, IReadOnlyList<Observation> baseline)
    {
        ArgumentNullException.ThrowIfNull(value);
        ArgumentNullException.ThrowIfNull(baseline);
        var (test, missing) = RatioTest.Of(value, baseline);
        if (test is not null)
        {
            return Judged(test, new FamilyVerdict(test.Interval(Confidence), RatioVerdict.NotJudged));
        }

        var median = Ratio.Of(MedianOf(value), MedianOf(baseline));
        return new ModeRatio(median, median, median, false, median is null ? RatioVerdict.Unknown : missing);
    }

    /// <summary>The ratio as its family judged it: the interval at its level, and the verdict read from it.</summary>
    public static ModeRatio Judged(RatioTest test, FamilyVerdict verdict)
    {
        ArgumentNullException.ThrowIfNull(test);
        ArgumentNullException.ThrowIfNull(verdict);
        var interval = verdict.Interval;
        return new ModeRatio(interval.Ratio, interval.Low, interval.High, true, verdict.Verdict) { Test = test, Level = interval.Confidence };
    }

    /// <summary>True for a verdict that a family judged (better, worse, no difference, inconclusive).</summary>
    public bool IsJudged => Verdict is RatioVerdict.Better or RatioVerdict.Worse or RatioVerdict.NoDifference or RatioVerdict.Inconclusive;

    private static double? MedianOf(IReadOnlyList<Observation> values) =>
        values.Count == 0 ? null : Spread.MedianOf([.. values.Select(o => o.Value).Order()]);
}
