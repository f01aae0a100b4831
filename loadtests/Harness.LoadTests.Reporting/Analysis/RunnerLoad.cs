using Harness.LoadTests.Recording;
using Harness.Metrics;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>
/// What the load runner itself used during a series' measured seconds (sampled into each second under
/// <see cref="MetricNames.RunnerPrefix"/>): at very many users the load generator can hold as much memory as the
/// service, or take the CPU the service needed, and then the figures describe the runner, not the service.
/// </summary>
/// <param name="PeakWorkingSetMb">The runner's largest working set, in MB.</param>
/// <param name="PeakGcHeapMb">Its largest GC heap after a collection, in MB.</param>
/// <param name="PeakThreads">Its most OS threads.</param>
/// <param name="MeanCpuPercent">Its CPU time ÷ wall time, in % of one core.</param>
/// <param name="SaturatedSeconds">
/// Measured seconds in which the machine's cores were busy (runner + target ≥ <see cref="SaturatedShare"/> of them)
/// and the runner used more CPU than the target: the load generator, not the service, was the limit. Local targets only;
/// a target on another machine still counts when the runner alone reaches that share. Always 0 when the run does not say
/// how many cores the machine had (nothing to judge "busy" against).
/// </param>
/// <param name="Seconds">Measured seconds with a runner sample.</param>
internal sealed record RunnerLoad(double? PeakWorkingSetMb, double? PeakGcHeapMb, double? PeakThreads, double? MeanCpuPercent, int SaturatedSeconds, int Seconds)
{
    /// <summary>The share of the machine's cores that counts as busy.</summary>
    public const double SaturatedShare = 0.9;

    /// <summary>Saturated in at least this share of the measured seconds (and 3 of them) for the report to say so.</summary>
    public const double SaturatedSecondsShare = 0.1;

    /// <summary>True when the runner's CPU was the limit often enough for the report to say so.</summary>
    public bool Saturated => SaturatedSeconds >= 3 && SaturatedSeconds >= SaturatedSecondsShare * Seconds;

    /// <param name="measured">The series' measured seconds, in order (warm-up left out); the runner's keys are read from each second's server values.</param>
    /// <param name="cores">The runner machine's cores (the run's <see cref="MachineInfo.ProcessorCount"/>); 0 when unknown.</param>
    /// <returns>Null when no second carries runner samples (runs recorded before the runner sampled itself).</returns>
    public static RunnerLoad? From(IReadOnlyList<SecondSample> measured, int cores)
    {
        ArgumentNullException.ThrowIfNull(measured);
        var sampled = measured.Where(s => ServerMetrics.Value(s.Server, MetricNames.RunnerWorkingSetBytes) is not null).OrderBy(s => s.Second).ToList();
        if (sampled.Count == 0)
        {
            return null;
        }

        double? peakWs = null, peakHeap = null, peakThreads = null;
        var saturated = 0;
        SecondSample? previous = null;
        foreach (var sample in sampled)
        {
            peakWs = Max(peakWs, ServerMetrics.Value(sample.Server, MetricNames.RunnerWorkingSetBytes) / (1024 * 1024));
            peakHeap = Max(peakHeap, ServerMetrics.Value(sample.Server, MetricNames.RunnerGcHeapBytes) / (1024 * 1024));
            peakThreads = Max(peakThreads, ServerMetrics.Value(sample.Server, MetricNames.RunnerThreads));
            if (cores > 0 && previous is not null && CpuPercent(previous, sample, MetricNames.RunnerCpuSecondsTotal) is { } runner)
            {
                var target = CpuPercent(previous, sample, MetricNames.ProcessCpuSecondsTotal) ?? 0;
                if (runner + target >= SaturatedShare * cores * 100 && runner >= target)
                {
                    saturated++;
                }
            }

            previous = sample;
        }

        var first = ServerMetrics.Value(sampled[0].Server, MetricNames.RunnerCpuSecondsTotal);
        var last = ServerMetrics.Value(sampled[^1].Server, MetricNames.RunnerCpuSecondsTotal);
        var span = sampled[^1].Second - sampled[0].Second;
        var mean = first is null || last is null || span <= 0 ? (double?)null : (last.Value - first.Value) / span * 100;
        return new RunnerLoad(peakWs, peakHeap, peakThreads, mean, saturated, sampled.Count);
    }

    // CPU time of one counter between two seconds ÷ the seconds between them, in % of one core.
    private static double? CpuPercent(SecondSample from, SecondSample to, string counter)
    {
        var a = ServerMetrics.Value(from.Server, counter);
        var b = ServerMetrics.Value(to.Server, counter);
        var seconds = to.Second - from.Second;
        return a is null || b is null || seconds <= 0 || b < a ? null : (b.Value - a.Value) / seconds * 100;
    }

    private static double? Max(double? peak, double? value) => value is { } v && (peak is null || v > peak) ? v : peak;
}
