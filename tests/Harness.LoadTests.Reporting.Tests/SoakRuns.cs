using Harness.LoadTests.Recording;
using static Harness.LoadTests.Reporting.Tests.Runs;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>
/// Soaks made by hand: 1,100 s, the first 100 s warm-up, so the measured span is 1,000 s and each 10 % window 100 s;
/// or <see cref="LongSeconds"/>, a span of 40 minutes, long enough for a growth per hour to be judged
/// (<see cref="SoakTrend.MinGrowthWindowSeconds"/>).
/// </summary>
internal static class SoakRuns
{
    public const int Seconds = 1100;
    public const int WarmUp = 100;

    /// <summary>A 40-minute span after the warm-up: a growth window of 20 minutes, windows of 4 minutes.</summary>
    public const int LongSeconds = WarmUp + 2400;

    /// <summary>
    /// One series of 16 users and 50 successful requests a second, 30 OS threads. Healthy: every request 100 ms and the
    /// working set 200 MB with a GC saw-tooth of ±0.45 MB. With <paramref name="leak"/> the working set grows 0.05 MB/s
    /// (180 MB/h) from 200 MB at second 100; with <paramref name="drift"/> every request from second 800 on takes
    /// 130 ms. <paramref name="failEvery"/> &gt; 0: one more request, failed, every that many seconds. With
    /// <paramref name="settle"/> (and no leak) the working set rises from 200 MB towards 240 MB, most of it early:
    /// 200 + 40 (1 − e^−(s − 100)/80), as a GC heap growing to its working size does. <paramref name="seconds"/>: its
    /// length, warm-up included.
    /// </summary>
    public static (SeriesInfo Series, IReadOnlyList<SecondSample> Samples) Series(
        string mode, bool leak, bool drift, int failEvery = 0, bool settle = false, int seconds = Seconds)
    {
        var info = Runs.Series("grpc", "compute", mode) with { WarmUpSeconds = WarmUp };
        var samples = new List<SecondSample>();
        for (var s = 0; s < seconds; s++)
        {
            var latency = Histogram((drift && s >= 800 ? 130_000 : 100_000, 50));
            var mb = leak ? 200 + (0.05 * (s - WarmUp))
                : settle ? 200 + (40 * (1 - Math.Exp(-Math.Max(0, s - WarmUp) / 80.0)))
                : 200 + (((s % 10) - 4.5) * 0.1);
            var failures = failEvery > 0 && s % failEvery == 0 ? 1 : 0;
            samples.Add(Sample(s, 16, latency, failures, Server(mode, 30, 2, 0, s * 0.5, s * 100.0, s * 10.0, mb)));
        }

        return (info, samples);
    }

    public static RunData Run(params (SeriesInfo, IReadOnlyList<SecondSample>)[] series) => AsSoak(Runs.Run(series));

    public static RunData AsSoak(RunData run) => run with { Manifest = run.Manifest with { Profile = "soak" } };
}
