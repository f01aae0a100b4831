namespace Harness.Scheduling;

/// <summary>
/// An emulation of the concurrency rule of a Windows I/O completion port, which classic WCF's
/// IOThreadScheduler ran on. .NET on Linux has no completion port to queue work to, so the rule is
/// rebuilt here in user mode:
/// <list type="bullet">
/// <item>at most <see cref="ConcurrencyLimit"/> work items hold a slot and run at once;</item>
/// <item>work waits in a FIFO queue, and the most recently idled thread is woken first (LIFO), which keeps
/// the set of threads in use small and their caches warm;</item>
/// <item>an item that enters a <see cref="BlockingRegion"/> gives its slot up while it blocks, so another
/// queued item can start (on a new thread if none is idle, up to <see cref="MaxThreads"/>); leaving the region
/// takes the slot back even if that puts the active count above the limit, and a thread that finishes while
/// the count is at or above the limit does not take new work.</item>
/// </list>
/// A real port notices every blocking wait in the kernel; this one notices only the regions a workload declares.
/// </summary>
public sealed class IocpScheduler : IWorkScheduler, IBlockingRegionHost
{
    private const string ThreadName = "iocp-worker";

    private readonly WorkItemRunner _runner = new();
    private readonly Lock _lock = new();
    private readonly Queue<WorkItem> _queue = new();

    // Idle workers; the last element is the most recently idled, and the next to be woken.
    private readonly List<Worker> _idle = [];
    private readonly int _idleTimeoutMilliseconds;

    // All guarded by _lock.
    private int _threads;
    private int _busy;
    private int _active;
    private int _peakActive;
    private bool _disposed;

    public IocpScheduler(SchedulingOptions options)
        : this(
            (options ?? throw new ArgumentNullException(nameof(options))).EffectiveIocpConcurrency,
            options.IocpMaxThreads,
            options.IdleTimeout)
    {
    }

    /// <param name="concurrency">Work items allowed to hold a slot at once.</param>
    /// <param name="maxThreads">Ceiling on threads, reached only when items block in declared regions.</param>
    /// <param name="idleTimeout">How long a thread above <paramref name="concurrency"/> stays idle before it exits.</param>
    public IocpScheduler(int concurrency, int maxThreads, TimeSpan idleTimeout)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(concurrency, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(maxThreads, concurrency);
        ConcurrencyLimit = concurrency;
        MaxThreads = maxThreads;
        IdleTimeout = idleTimeout;
        _idleTimeoutMilliseconds = TimeoutToMilliseconds(idleTimeout);
    }

    public SchedulingMode Mode => SchedulingMode.Iocp;

    public int ConcurrencyLimit { get; }

    public int MaxThreads { get; }

    public TimeSpan IdleTimeout { get; }

    /// <summary>Work items holding a slot now: running, and not blocked in a declared region.</summary>
    public int ActiveCount
    {
        get
        {
            lock (_lock)
            {
                return _active;
            }
        }
    }

    /// <summary>The largest <see cref="ActiveCount"/> seen since the scheduler was created.</summary>
    public int PeakActiveCount
    {
        get
        {
            lock (_lock)
            {
                return _peakActive;
            }
        }
    }

    public event Action<Exception>? UnhandledException;

    public void Post(Action<object?> callback, object? state)
    {
        ArgumentNullException.ThrowIfNull(callback);
        var item = new WorkItem(callback, state);
        lock (_lock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            _queue.Enqueue(item);
            DispatchLocked();
        }
    }

    public SchedulerCounters GetCounters()
    {
        lock (_lock)
        {
            return new SchedulerCounters(_threads, _busy, _queue.Count, _runner.Completed, _runner.Failed);
        }
    }

    /// <summary>
    /// Refuses further posts, drops queued items that have not started, and lets every thread exit once its
    /// current item returns. Does not wait for them.
    /// </summary>
    public void Dispose()
    {
        lock (_lock)
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
            _queue.Clear();
            foreach (var worker in _idle)
            {
                worker.Wake.Set();
            }

            _idle.Clear();
        }
    }

    void IBlockingRegionHost.OnBlockingEnter()
    {
        lock (_lock)
        {
            _active--;
            DispatchLocked();
        }
    }

    void IBlockingRegionHost.OnBlockingExit()
    {
        lock (_lock)
        {
            // Taken back unconditionally, as a port counts a thread active again the moment its wait ends.
            TakeSlotLocked();
        }
    }

    // Starts queued items while slots are free: on the most recently idled thread, else on a new one.
    private void DispatchLocked()
    {
        while (_active < ConcurrencyLimit && _queue.Count > 0)
        {
            Worker worker;
            var isNew = false;
            if (_idle.Count > 0)
            {
                worker = _idle[^1];
                _idle.RemoveAt(_idle.Count - 1);
            }
            else if (_threads < MaxThreads)
            {
                worker = new Worker(this);
                isNew = true;
                _threads++;
            }
            else
            {
                return;
            }

            worker.HandOff = _queue.Dequeue();
            TakeSlotLocked();
            _busy++;

            // Threads are created rarely (the first N, then only past blocked items), so starting one under the
            // lock costs little and keeps the counts exact.
            if (isNew)
            {
                StartThread(worker);
            }
            else
            {
                worker.Wake.Set();
            }
        }
    }

    private void TakeSlotLocked()
    {
        _active++;
        if (_active > _peakActive)
        {
            _peakActive = _active;
        }
    }

    private void StartThread(Worker worker)
    {
        var thread = new Thread(static state =>
        {
            var worker = (Worker)state!;
            worker.Owner.WorkerLoop(worker);
        })
        {
            IsBackground = true,
            Name = ThreadName,
        };

        // UnsafeStart: a thread started while running a request must not keep that request's AsyncLocals.
        thread.UnsafeStart(worker);
    }

    private void WorkerLoop(Worker self)
    {
        BlockingRegion.AttachCurrentThread(this);
        WorkItem? item;
        lock (_lock)
        {
            item = self.HandOff;
            self.HandOff = null;
        }

        // Ends when the scheduler is disposed or this thread retires.
        while (item is not null)
        {
            _runner.Run(item, UnhandledException);
            item = NextItem(self, slotGivenUp: BlockingRegion.CloseAbandoned());
        }

        // Off the idle list for good, so nothing sets this event any more.
        self.Wake.Dispose();
    }

    private WorkItem? NextItem(Worker self, bool slotGivenUp)
    {
        lock (_lock)
        {
            _busy--;
            if (!slotGivenUp)
            {
                _active--;
            }

            if (_disposed)
            {
                _threads--;
                return null;
            }

            // The thread that just finished keeps going while a slot is free, as a port hands the next
            // packet to the thread asking for it.
            if (_active < ConcurrencyLimit && _queue.TryDequeue(out var next))
            {
                TakeSlotLocked();
                _busy++;
                return next;
            }

            _idle.Add(self);
        }

        return WaitForHandOff(self);
    }

    private WorkItem? WaitForHandOff(Worker self)
    {
        // Ends on a hand-off, on disposal, or when this thread retires; each pass waits once.
        while (true)
        {
            // Threads up to the concurrency limit wait for good; only those above it retire.
            var timeout = Volatile.Read(ref _threads) > ConcurrencyLimit ? _idleTimeoutMilliseconds : Timeout.Infinite;
            var signaled = self.Wake.Wait(timeout);
            lock (_lock)
            {
                if (self.HandOff is { } item)
                {
                    self.HandOff = null;
                    return item;
                }

                if (_disposed)
                {
                    _threads--;
                    return null;
                }

                if (!signaled && _threads > ConcurrencyLimit)
                {
                    _idle.Remove(self);
                    _threads--;
                    return null;
                }
            }
        }
    }

    internal static int TimeoutToMilliseconds(TimeSpan timeout)
    {
        if (timeout == Timeout.InfiniteTimeSpan)
        {
            return Timeout.Infinite;
        }

        ArgumentOutOfRangeException.ThrowIfLessThan(timeout, TimeSpan.Zero, nameof(timeout));
        return (int)Math.Min(int.MaxValue, (long)timeout.TotalMilliseconds);
    }

    private sealed class Worker
    {
        public readonly LeanAutoResetEvent Wake = new();

        public readonly IocpScheduler Owner;

        // Set under the scheduler's lock when a dispatcher takes this worker off the idle list.
        public WorkItem? HandOff;

        public Worker(IocpScheduler owner) => Owner = owner;
    }
}
