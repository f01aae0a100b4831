using System.Collections.Concurrent;
using System.Diagnostics;
using Harness.LoadTests.Recording;
using Harness.Metrics;

namespace Harness.LoadTests.Running;

/// <summary>
/// Records the runner's own CPU time, working set, OS threads and GC heap once a second into the series' seconds,
/// beside the target's counters (<see cref="MetricNames.RunnerPrefix"/>): at 100,000 users the load generator holds
/// as much as the service, and a report must be able to say when it, not the service, was the limit.
/// </summary>
/// <remarks>
/// A reading that fails is left out of that second and never ends the run: <see cref="Process.Threads"/> parses
/// procfs, and a thread that exits while it is read has made it throw <see cref="InvalidDataException"/>.
/// </remarks>
internal static class RunnerSampler
{
    private static readonly (string Name, Func<Process, double> Read)[] Readings =
    [
        (MetricNames.RunnerCpuSecondsTotal, static p => p.TotalProcessorTime.TotalSeconds),
        (MetricNames.RunnerWorkingSetBytes, static _ => Environment.WorkingSet),
        (MetricNames.RunnerThreads, static p => p.Threads.Count),
        (MetricNames.RunnerGcHeapBytes, static _ => GC.GetGCMemoryInfo().HeapSizeBytes),
    ];

    // Each failing reading is noted once per process: a procfs that fails once tends to fail again.
    private static readonly ConcurrentDictionary<string, byte> Noted = new(StringComparer.Ordinal);

    /// <param name="runClock">The run's clock, for the time of the note that a reading failed.</param>
    public static Task RunAsync(GuardedRecorder recorder, string seriesId, Stopwatch runClock, CancellationToken cancellationToken) =>
        RunAsync(recorder, seriesId, runClock, Readings, cancellationToken);

    /// <summary><see cref="RunAsync(GuardedRecorder, string, Stopwatch, CancellationToken)"/> with readings of the caller's (tests).</summary>
    internal static async Task RunAsync(
        GuardedRecorder recorder, string seriesId, Stopwatch runClock, IReadOnlyList<(string Name, Func<Process, double> Read)> readings, CancellationToken cancellationToken)
    {
        var clock = Stopwatch.StartNew();
        for (var second = 0; !cancellationToken.IsCancellationRequested; second++)
        {
            var values = ReadGuarded(readings, (name, ex) =>
            {
                if (Noted.TryAdd(name, 0))
                {
                    recorder.RecordEvent(new RunEvent(runClock.Elapsed.TotalSeconds, "note", seriesId,
                        $"the runner's own {name} could not be read ({ex.GetType().Name}: {ex.Message.ReplaceLineEndings(" ")}); seconds in which it fails go without it"));
                }
            });
            recorder.RecordServer(seriesId, second, values);
            if (!await SecondTicks.WaitForNextAsync(clock, second, cancellationToken))
            {
                return;
            }
        }
    }

    /// <summary>This process's readings under the runner's metric names; one that fails is left out.</summary>
    public static IReadOnlyDictionary<string, double> Read() => ReadGuarded(Readings, failed: null);

    /// <summary>The <paramref name="readings"/> of this process, each by its name; one that throws is left out and handed to <paramref name="failed"/>.</summary>
    internal static IReadOnlyDictionary<string, double> ReadGuarded(IReadOnlyList<(string Name, Func<Process, double> Read)> readings, Action<string, Exception>? failed)
    {
        var values = new Dictionary<string, double>(StringComparer.Ordinal);
        using var process = Process.GetCurrentProcess();
        foreach (var (name, read) in readings)
        {
            try
            {
                values[name] = read(process);
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                failed?.Invoke(name, ex);
            }
        }

        return values;
    }
}
