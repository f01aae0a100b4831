namespace Harness.Scheduling;

/// <summary>
/// Runs work items on the shared .NET ThreadPool, as the RPC stacks do by default. The thread counts
/// it reports are the ThreadPool's; <see cref="SchedulerCounters.Completed"/> and
/// <see cref="SchedulerCounters.Failed"/> count only the items posted through this instance.
/// </summary>
public sealed class ThreadPoolScheduler : IWorkScheduler
{
    private readonly WorkItemRunner _runner = new();
    private volatile bool _disposed;

    public SchedulingMode Mode => SchedulingMode.ThreadPool;

    public event Action<Exception>? UnhandledException;

    public void Post(Action<object?> callback, object? state)
    {
        ArgumentNullException.ThrowIfNull(callback);
        ObjectDisposedException.ThrowIf(_disposed, this);

        // Unsafe: the caller's ExecutionContext does not flow, as with the other schedulers; the
        // SynchronizationContext and RunAsync layers flow it where the caller expects it.
        ThreadPool.UnsafeQueueUserWorkItem(new QueuedItem(this, new WorkItem(callback, state)), preferLocal: false);
    }

    public SchedulerCounters GetCounters()
    {
        ThreadPool.GetMaxThreads(out var maxWorkers, out _);
        ThreadPool.GetAvailableThreads(out var availableWorkers, out _);
        return new SchedulerCounters(
            ThreadsTotal: ThreadPool.ThreadCount,
            ThreadsBusy: maxWorkers - availableWorkers,
            QueueLength: ThreadPool.PendingWorkItemCount,
            Completed: _runner.Completed,
            Failed: _runner.Failed);
    }

    /// <summary>Refuses further posts. Items already queued still run: the ThreadPool cannot take them back.</summary>
    public void Dispose() => _disposed = true;

    private sealed class QueuedItem : IThreadPoolWorkItem
    {
        private readonly ThreadPoolScheduler _owner;
        private readonly WorkItem _item;

        public QueuedItem(ThreadPoolScheduler owner, WorkItem item)
        {
            _owner = owner;
            _item = item;
        }

        // An exception escaping a ThreadPool item terminates the process; the runner catches it.
        public void Execute() => _owner._runner.Run(_item, _owner.UnhandledException);
    }
}
