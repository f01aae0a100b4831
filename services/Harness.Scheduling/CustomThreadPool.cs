using System.Collections.Concurrent;

namespace Harness.Scheduling;

/// <summary>
/// A dedicated thread pool in the manner of the classic custom pools (Jon Skeet's MiscUtil CustomThreadPool):
/// <see cref="MinThreads"/> threads start with the pool and stay; when every thread is running an item and work
/// is waiting, another thread starts at once, with no injection delay, up to <see cref="MaxThreads"/>; a thread
/// above the minimum exits after <see cref="IdleTimeout"/> without work.
/// </summary>
/// <remarks>
/// Posting is lock-free. Workers wait on one <see cref="LeanAutoResetEvent"/>, so a post made while no worker is
/// blocked only raises the event's flag; the kernel is involved only when a worker really sleeps.
/// </remarks>
public sealed class CustomThreadPool : IWorkScheduler
{
    private const string ThreadName = "custompool-worker";

    private readonly WorkItemRunner _runner = new();
    private readonly ConcurrentQueue<WorkItem> _queue = new();
    // Never disposed: a post racing Dispose may still set it after the last worker has gone. Its semaphore's
    // handle is released by the finalizer.
    private readonly LeanAutoResetEvent _workAvailable = new();
    private readonly int _idleTimeoutMilliseconds;
    private int _threads;
    private int _busy;
    private volatile bool _disposed;

    public CustomThreadPool(SchedulingOptions options)
        : this(
            (options ?? throw new ArgumentNullException(nameof(options))).CustomPoolMinThreads,
            options.CustomPoolMaxThreads,
            options.IdleTimeout)
    {
    }

    public CustomThreadPool(int minThreads, int maxThreads, TimeSpan idleTimeout)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(minThreads);
        ArgumentOutOfRangeException.ThrowIfLessThan(maxThreads, Math.Max(1, minThreads));
        MinThreads = minThreads;
        MaxThreads = maxThreads;
        IdleTimeout = idleTimeout;
        _idleTimeoutMilliseconds = IocpScheduler.TimeoutToMilliseconds(idleTimeout);

        for (var i = 0; i < minThreads; i++)
        {
            TryAddThread();
        }
    }

    public SchedulingMode Mode => SchedulingMode.CustomPool;

    public int MinThreads { get; }

    public int MaxThreads { get; }

    public TimeSpan IdleTimeout { get; }

    /// <summary>Idle workers blocked in the kernel now (a snapshot); a post wakes one of them.</summary>
    public int SleepingThreads => _workAvailable.WaitingThreads;

    public event Action<Exception>? UnhandledException;

    public void Post(Action<object?> callback, object? state)
    {
        ArgumentNullException.ThrowIfNull(callback);
        ObjectDisposedException.ThrowIf(_disposed, this);
        _queue.Enqueue(new WorkItem(callback, state));
        RequestWorker();
    }

    public SchedulerCounters GetCounters() => new(
        ThreadsTotal: Volatile.Read(ref _threads),
        ThreadsBusy: Volatile.Read(ref _busy),
        QueueLength: _queue.Count,
        Completed: _runner.Completed,
        Failed: _runner.Failed);

    /// <summary>
    /// Refuses further posts, and lets every thread exit once its current item returns; items that have not
    /// started are not run. Does not wait for the threads.
    /// </summary>
    public void Dispose()
    {
        _disposed = true;

        // Each exiting worker sets the event again, so this one signal reaches every sleeping worker in turn.
        _workAvailable.Set();
    }

    // Called after an item is queued, by the poster or by a worker that left items behind.
    private void RequestWorker()
    {
        // The interlocked enqueue (or dequeue and increment) before these reads pairs with the worker's
        // increment of _busy before it looks at the queue: one side always sees the other.
        if (Volatile.Read(ref _busy) >= Volatile.Read(ref _threads) && TryAddThread())
        {
            return;
        }

        // A no-op flag write unless a worker sleeps; a worker about to sleep sees the flag and does not.
        _workAvailable.Set();
    }

    private bool TryAddThread()
    {
        var threads = Volatile.Read(ref _threads);
        while (threads < MaxThreads)
        {
            var observed = Interlocked.CompareExchange(ref _threads, threads + 1, threads);
            if (observed == threads)
            {
                var thread = new Thread(static state => ((CustomThreadPool)state!).WorkerLoop())
                {
                    IsBackground = true,
                    Name = ThreadName,
                };

                // UnsafeStart: a thread started while running a request must not keep that request's AsyncLocals.
                thread.UnsafeStart(this);
                return true;
            }

            threads = observed;
        }

        return false;
    }

    private void WorkerLoop()
    {
        // Ends when the pool is disposed or this thread retires.
        while (!_disposed)
        {
            if (_queue.TryDequeue(out var item))
            {
                Interlocked.Increment(ref _busy);

                // Wake-ups coalesce, so whoever takes an item passes the signal on for the rest.
                if (!_queue.IsEmpty)
                {
                    RequestWorker();
                }

                _runner.Run(item, UnhandledException);
                Interlocked.Decrement(ref _busy);
                continue;
            }

            var timeout = Volatile.Read(ref _threads) > MinThreads ? _idleTimeoutMilliseconds : Timeout.Infinite;
            if (!_workAvailable.Wait(timeout) && TryRetire())
            {
                return;
            }
        }

        Interlocked.Decrement(ref _threads);
        _workAvailable.Set();
    }

    private bool TryRetire()
    {
        var threads = Volatile.Read(ref _threads);
        while (threads > MinThreads)
        {
            var observed = Interlocked.CompareExchange(ref _threads, threads - 1, threads);
            if (observed == threads)
            {
                // A post made just before the decrement may have counted on this thread; stay for it unless
                // the pool filled back up meanwhile.
                return _queue.IsEmpty || !TryRejoin();
            }

            threads = observed;
        }

        return false;
    }

    private bool TryRejoin()
    {
        var threads = Volatile.Read(ref _threads);
        while (threads < MaxThreads)
        {
            var observed = Interlocked.CompareExchange(ref _threads, threads + 1, threads);
            if (observed == threads)
            {
                return true;
            }

            threads = observed;
        }

        return false;
    }
}
