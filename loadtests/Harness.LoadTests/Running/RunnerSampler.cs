using System.Diagnostics;
using Harness.Metrics;

namespace Harness.LoadTests.Running;

/// <summary>
/// Records the runner's own CPU time, working set, OS threads and GC heap once a second into the series' seconds,
/// beside the target's counters (<see cref="MetricNames.RunnerPrefix"/>): at 100,000 users the load generator holds
/// as much as the service, and a report must be able to say when it, not the service, was the limit.
/// </summary>
internal static class RunnerSampler
{
    public static async Task RunAsync(GuardedRecorder recorder, string seriesId, CancellationToken cancellationToken)
    {
        var clock = Stopwatch.StartNew();
        for (var second = 0; !cancellationToken.IsCancellationRequested; second++)
        {
            recorder.RecordServer(seriesId, second, Read());
            if (!await SecondTicks.WaitForNextAsync(clock, second, cancellationToken))
            {
                return;
            }
        }
    }

    /// <summary>This process's readings under the runner's metric names.</summary>
    public static IReadOnlyDictionary<string, double> Read()
    {
        using var process = Process.GetCurrentProcess();
        return new Dictionary<string, double>(StringComparer.Ordinal)
        {
            [MetricNames.RunnerCpuSecondsTotal] = process.TotalProcessorTime.TotalSeconds,
            [MetricNames.RunnerWorkingSetBytes] = Environment.WorkingSet,
            [MetricNames.RunnerThreads] = process.Threads.Count,
            [MetricNames.RunnerGcHeapBytes] = GC.GetGCMemoryInfo().HeapSizeBytes,
        };
    }
}
