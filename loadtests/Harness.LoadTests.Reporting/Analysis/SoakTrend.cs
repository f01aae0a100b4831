using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>One of the two windows a soak compares: series seconds [<see cref="From"/>, <see cref="To"/>).</summary>
/// <param name="P99Ms">p99 of the successful requests completed in the window, from their merged histogram; null when none.</param>
/// <param name="SuccessesPerSecond">Successful requests ÷ the window's active seconds; null when it had none.</param>
/// <param name="WorkingSetMb">Mean working set of the target over the window's scrapes; null when never scraped.</param>
/// <param name="Threads">Mean OS threads of the target over the window's scrapes; null when never scraped.</param>
internal sealed record SoakWindow(int From, int To, double? P99Ms, double? SuccessesPerSecond, double? WorkingSetMb, double? Threads);

/// <summary>A point of a soak chart: x in series seconds, y in the figure's unit.</summary>
internal sealed record SoakPoint(double X, double Y);

/// <summary>
/// Whether a series held steady over its length (docs/report.md, "Soak"): after the warm-up, its first and last
/// windows (each <see cref="WindowFraction"/> of the measured span) compared, and least-squares trends over the
/// whole span: p99 over consecutive windows of the same length and successful req/s; working set and OS threads over
/// the span's second half only (<see cref="GrowthFrom"/>).
/// </summary>
internal sealed record SoakTrend
{
    public const double DefaultWindowFraction = 0.1;

    /// <summary>
    /// The shortest growth window (<see cref="GrowthWindowSeconds"/>) on which a growth per hour is judged: 10 minutes,
    /// so a span of 20 minutes after the warm-up. A fresh service settles for tens of minutes, its GC heap growing to its
    /// working size and the ThreadPool injecting threads (109 → 116 MB in the first 20 minutes, then 0.3 MB in the last
    /// 20 of an hour: docs/results.md, "Soak"); a slope of the first minutes extrapolated to an hour reads that settling
    /// as thousands of % an hour. Ten minutes, ×6 to an hour and starting after the steepest rise, is the shortest
    /// window whose figure still says something (docs/report.md, "Soak").
    /// </summary>
    public const int MinGrowthWindowSeconds = 600;

    /// <summary>
    /// The shortest window (<see cref="DriftWindowSeconds"/>) on which a drift is judged: 30 s each, so with 10 % windows
    /// a span of 5 minutes. A soak's 16 requests/s give a p99 of about 500 requests, one that rests on its 5 slowest, and
    /// a window of a few seconds measures one GC pause or one scrape, not the service's level (docs/report.md, "Soak").
    /// </summary>
    public const int MinDriftWindowSeconds = 30;

    public static SoakTrend Empty { get; } = new() { WindowFraction = DefaultWindowFraction };

    /// <summary>Each window's share of the measured span, e.g. 0.1 for the first and last 10 %.</summary>
    public required double WindowFraction { get; init; }

    /// <summary>The measured span, series seconds [SpanFrom, SpanTo): the first recorded second after the warm-up to the last.</summary>
    public int SpanFrom { get; init; }

    public int SpanTo { get; init; }

    /// <summary>
    /// The first second of the growth fits (<see cref="MemoryTrend"/>, <see cref="ThreadsTrend"/>): the middle of the
    /// span. A service's working set settles for tens of minutes (the GC heap grows to its working size, then levels off:
    /// docs/results.md, "Soak"); fitted over the whole span that settling reads as a leak, while a leak grows to the end.
    /// </summary>
    public int GrowthFrom { get; init; }

    /// <summary>Seconds the growth fits cover: <see cref="GrowthFrom"/> to <see cref="SpanTo"/>, half the span (0 when empty).</summary>
    public int GrowthWindowSeconds => SpanTo - GrowthFrom;

    /// <summary>Seconds in each of the two windows (0 when the span has fewer than two seconds).</summary>
    public int DriftWindowSeconds => First is { } w ? w.To - w.From : 0;

    public SoakWindow? First { get; init; }

    public SoakWindow? Last { get; init; }

    /// <summary>p99 of each consecutive window of the span (x = the middle of its seconds): what <see cref="P99Trend"/> is fitted to.</summary>
    public IReadOnlyList<SoakPoint> P99Windows { get; init; } = [];

    /// <summary>p99 (ms) against series seconds, fitted to <see cref="P99Windows"/>.</summary>
    public LinearFit? P99Trend { get; init; }

    /// <summary>Successful requests per active second against series seconds.</summary>
    public LinearFit? RpsTrend { get; init; }

    /// <summary>Working set (MB) against series seconds, over every scrape from <see cref="GrowthFrom"/> on.</summary>
    public LinearFit? MemoryTrend { get; init; }

    /// <summary>OS threads of the target against series seconds, over every scrape from <see cref="GrowthFrom"/> on.</summary>
    public LinearFit? ThreadsTrend { get; init; }

    /// <summary>Failures ÷ requests over the span, 0 to 1; null when nothing completed.</summary>
    public double? ErrorRate { get; init; }

    /// <summary>True when the span has at least two seconds, so two windows exist.</summary>
    public bool HasWindows => First is not null && Last is not null;

    /// <summary>(last window's p99 − first's) ÷ first's, in %.</summary>
    public double? P99DriftPercent => Ratio.PercentChange(First?.P99Ms, Last?.P99Ms);

    /// <summary>(last window's successful req/s − first's) ÷ first's, in %.</summary>
    public double? RpsDriftPercent => Ratio.PercentChange(First?.SuccessesPerSecond, Last?.SuccessesPerSecond);

    /// <summary>The working set's fitted slope per hour ÷ the first window's mean working set, in % per hour.</summary>
    public double? MemoryGrowthPercentPerHour =>
        MemoryTrend is { } fit && First?.WorkingSetMb is > 0 and var level ? fit.Slope * 3600 / level * 100 : null;

    /// <summary>The OS threads' fitted slope, in threads per hour.</summary>
    public double? ThreadsGrowthPerHour => ThreadsTrend is { } fit ? fit.Slope * 3600 : null;

    /// <summary>The OS threads' fitted slope per hour ÷ the first window's mean thread count, in % per hour.</summary>
    public double? ThreadsGrowthPercentPerHour =>
        ThreadsGrowthPerHour is { } perHour && First?.Threads is > 0 and var level ? perHour / level * 100 : null;

    /// <param name="series">The series (its warm-up is left out).</param>
    /// <param name="timeline">Its whole timeline.</param>
    /// <param name="windowFraction">Each window's share of the span, above 0 and at most 0.5.</param>
    public static SoakTrend From(SeriesInfo series, IReadOnlyList<SecondSample> timeline, double windowFraction = DefaultWindowFraction)
    {
        ArgumentNullException.ThrowIfNull(series);
        ArgumentNullException.ThrowIfNull(timeline);
        if (double.IsNaN(windowFraction) || windowFraction <= 0 || windowFraction > 0.5)
        {
            throw new ArgumentOutOfRangeException(nameof(windowFraction), windowFraction, "A soak window is more than 0 and at most half of the series (0.5).");
        }

        var samples = SeriesSummary.Measured(series, timeline).OrderBy(s => s.Second).ToList();
        if (samples.Count == 0)
        {
            return Empty with { WindowFraction = windowFraction };
        }

        int from = samples[0].Second, to = samples[^1].Second + 1, span = to - from, growthFrom = from + (span / 2);
        var late = samples.Where(s => s.Second >= growthFrom).ToList();
        long requests = samples.Sum(s => s.Requests), failures = samples.Sum(s => s.Failures);
        var trend = new SoakTrend
        {
            WindowFraction = windowFraction,
            SpanFrom = from,
            SpanTo = to,
            GrowthFrom = growthFrom,
            ErrorRate = requests == 0 ? null : (double)failures / requests,
            RpsTrend = LinearFit.Of(samples.Where(IsActive).Select(s => ((double)s.Second, (double)(s.Requests - s.Failures)))),
            MemoryTrend = LinearFit.Of(Gauge(late, WorkingSetMb)),
            ThreadsTrend = LinearFit.Of(Gauge(late, s => ServerMetrics.Threads(s.Server))),
        };
        if (span < 2)
        {
            return trend;
        }

        var width = WindowWidth(span, windowFraction);
        var pieces = Math.Max(2, (int)Math.Round(1 / windowFraction, MidpointRounding.AwayFromZero));
        var p99s = new List<SoakPoint>();
        for (var k = 0; k < pieces; k++)
        {
            int start = from + (int)((long)k * span / pieces), end = from + (int)((long)(k + 1) * span / pieces);
            if (end > start && P99Of(samples, start, end) is { } p99)
            {
                p99s.Add(new SoakPoint((start + end - 1) / 2.0, p99));
            }
        }

        return trend with
        {
            First = Window(samples, from, from + width),
            Last = Window(samples, to - width, to),
            P99Windows = p99s,
            P99Trend = LinearFit.Of(p99s.Select(p => (p.X, p.Y))),
        };
    }

    /// <summary>Seconds in each window: round(span × fraction), at least 1 and at most half the span, so the two never overlap.</summary>
    public static int WindowWidth(int spanSeconds, double windowFraction) =>
        Math.Clamp((int)Math.Round(spanSeconds * windowFraction, MidpointRounding.AwayFromZero), 1, Math.Max(1, spanSeconds / 2));

    private static SoakWindow Window(List<SecondSample> samples, int from, int to)
    {
        var inside = samples.Where(s => s.Second >= from && s.Second < to).ToList();
        var active = inside.Where(IsActive).ToList();
        return new SoakWindow(
            from,
            to,
            P99Of(inside, from, to),
            active.Count == 0 ? null : active.Sum(s => (double)(s.Requests - s.Failures)) / active.Count,
            MeanOf(Gauge(inside, WorkingSetMb)),
            MeanOf(Gauge(inside, s => ServerMetrics.Threads(s.Server))));
    }

    private static double? P99Of(IEnumerable<SecondSample> samples, int from, int to)
    {
        var merged = LatencyHistogram.Merge(samples.Where(s => s.Second >= from && s.Second < to).Select(s => s.Latency));
        return merged.TotalCount == 0 ? null : merged.ValueAtPercentile(99) / 1000.0;
    }

    // As in the summary's req/s: a second counts when the series had load or completed requests.
    private static bool IsActive(SecondSample s) => s.Users > 0 || s.Requests > 0;

    private static double? WorkingSetMb(SecondSample s) => ServerMetrics.Value(s.Server, ServerMetrics.WorkingSetBytes) / (1024 * 1024);

    private static IEnumerable<(double X, double Y)> Gauge(IEnumerable<SecondSample> samples, Func<SecondSample, double?> read) =>
        samples.Select(s => (X: (double)s.Second, Y: read(s))).Where(p => p.Y is not null).Select(p => (p.X, p.Y!.Value));

    private static double? MeanOf(IEnumerable<(double X, double Y)> points)
    {
        var list = points.ToList();
        return list.Count == 0 ? null : list.Average(p => p.Y);
    }
}
