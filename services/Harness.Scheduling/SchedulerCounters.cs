namespace Harness.Scheduling;

/// <summary>A point-in-time reading of a scheduler, published on /metrics.</summary>
/// <param name="ThreadsTotal">Threads the scheduler owns (for the ThreadPool mode: the ThreadPool's worker threads).</param>
/// <param name="ThreadsBusy">Threads running a work item now (for Iocp: those holding a concurrency slot or blocked in a declared region).</param>
/// <param name="QueueLength">Work items queued and not yet started.</param>
/// <param name="Completed">Work items finished since start, failed ones included.</param>
/// <param name="Failed">Work items that threw; the scheduler caught the exception and kept its thread.</param>
public readonly record struct SchedulerCounters(
    int ThreadsTotal,
    int ThreadsBusy,
    long QueueLength,
    long Completed,
    long Failed);
