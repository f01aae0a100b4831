using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>How a series came back after one outage or fault window (docs/report.md, "Time to recover").</summary>
/// <param name="BaselineRequestsPerSecond">Mean successful requests per second of the recorded seconds just before the window.</param>
/// <param name="BaselineP99Ms">p99 of the successful requests of those seconds.</param>
/// <param name="RecoveredAtSecond">The first second of the first stretch after the window that meets both conditions; null when none did.</param>
/// <param name="SecondsToRecover">From the window's end to <paramref name="RecoveredAtSecond"/>; null when it did not recover.</param>
/// <param name="Outcome">Why there is no time, when there is none, else "recovered".</param>
internal sealed record Recovery(
    EventWindow Window,
    double? BaselineRequestsPerSecond,
    double? BaselineP99Ms,
    int? RecoveredAtSecond,
    double? SecondsToRecover,
    string Outcome)
{
    /// <summary>Seconds before the window whose throughput and p99 are the level to return to.</summary>
    public const int BaselineSeconds = 5;

    /// <summary>Seconds in a row whose mean throughput and merged p99 must both be back.</summary>
    public const int HoldSeconds = 3;

    /// <summary>Back means at least this share of the baseline's successful requests per second…</summary>
    public const double ThroughputShare = 0.9;

    /// <summary>…and a p99 of at most this multiple of the baseline's.</summary>
    public const double P99Factor = 1.1;

    public bool Recovered => SecondsToRecover is not null;

    /// <summary>
    /// For each window of the series: the baseline is the last <see cref="BaselineSeconds"/> recorded seconds before the
    /// window opens that no window touches; the series has recovered at the first second r, at or
    /// after the window's end, from which the <see cref="HoldSeconds"/> seconds r … r + 2 are all recorded, their mean
    /// successful requests per second is at least <see cref="ThroughputShare"/> of the baseline's, and the p99 of their
    /// successful requests at most <see cref="P99Factor"/> × the baseline's. The search stops where the next window opens.
    /// </summary>
    /// <param name="samples">The seconds that count (warm-up left out), in any order.</param>
    public static IReadOnlyList<Recovery> For(IReadOnlyList<EventWindow> windows, IReadOnlyList<SecondSample> samples)
    {
        ArgumentNullException.ThrowIfNull(windows);
        ArgumentNullException.ThrowIfNull(samples);
        var bySecond = samples.ToDictionary(s => s.Second);
        var end = samples.Count == 0 ? 0 : samples.Max(s => s.Second) + 1;
        var recoveries = new List<Recovery>();
        foreach (var window in windows)
        {
            // The baseline is steady time: no second touched by any window. The search ends where a later window opens.
            bool Quiet(int second) => !windows.Any(w => w.From < second + 1 && (w.To ?? double.MaxValue) > second);
            var searchEnd = windows.Where(w => window.To is { } to && w.From >= to).Select(w => (int)Math.Floor(w.From)).Append(end).Min();
            recoveries.Add(Of(window, bySecond, Quiet, searchEnd));
        }

        return recoveries;
    }

    private static Recovery Of(EventWindow window, Dictionary<int, SecondSample> bySecond, Func<int, bool> quiet, int searchEnd)
    {
        var opened = (int)Math.Floor(window.From);
        var baseline = Enumerable.Range(0, Math.Max(0, opened)).Reverse()
            .Where(s => bySecond.ContainsKey(s) && quiet(s))
            .Take(BaselineSeconds)
            .Select(s => bySecond[s])
            .ToList();
        var baselineRps = baseline.Count == 0 ? 0 : baseline.Average(Successes);
        var baselineP99 = P99Ms(baseline);
        if (baselineRps <= 0 || baselineP99 is null)
        {
            return new Recovery(window, null, null, null, null, "no successful requests recorded before the window");
        }

        if (window.To is not { } closed)
        {
            return new Recovery(window, baselineRps, baselineP99, null, null, "the window never closed");
        }

        for (var start = (int)Math.Ceiling(closed); start + HoldSeconds <= searchEnd; start++)
        {
            var stretch = Enumerable.Range(start, HoldSeconds).Select(s => bySecond.GetValueOrDefault(s)).ToList();
            if (stretch.Any(s => s is null))
            {
                continue;
            }

            var held = stretch.Select(s => s!).ToList();
            if (held.Average(Successes) >= ThroughputShare * baselineRps && P99Ms(held) is { } p99 && p99 <= P99Factor * baselineP99)
            {
                return new Recovery(window, baselineRps, baselineP99, start, start - closed, "recovered");
            }
        }

        return new Recovery(window, baselineRps, baselineP99, null, null, "not back before the series ended or the next window opened");
    }

    private static double Successes(SecondSample sample) => sample.Latency.TotalCount;

    private static double? P99Ms(IReadOnlyList<SecondSample> seconds)
    {
        var merged = LatencyHistogram.Merge(seconds.Select(s => s.Latency));
        return merged.TotalCount == 0 ? null : merged.ValueAtPercentile(99) / 1000.0;
    }
}
