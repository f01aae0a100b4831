namespace Harness.Scheduling;

/// <summary>Runs work items the way one <see cref="SchedulingMode"/> does.</summary>
/// <remarks>
/// An exception thrown by a work item never escapes to the worker thread: it is counted in
/// <see cref="SchedulerCounters.Failed"/> and reported to <see cref="UnhandledException"/>.
/// </remarks>
public interface IWorkScheduler : IDisposable
{
    SchedulingMode Mode { get; }

    /// <summary>Queues <paramref name="callback"/> to run once on one of the scheduler's threads.</summary>
    /// <exception cref="ObjectDisposedException">The scheduler has been disposed.</exception>
    void Post(Action<object?> callback, object? state);

    SchedulerCounters GetCounters();

    /// <summary>Raised on the worker thread when a work item throws.</summary>
    event Action<Exception>? UnhandledException;
}
