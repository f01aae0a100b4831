namespace Harness.LoadTests.Engine;

/// <summary>
/// The closed model: copies (virtual users) each loop over the scenario, one request after another. A controller
/// loop keeps the number of running copies at the plan's target, and releases a burst's copies all at once.
/// </summary>
/// <remarks>
/// The controller follows the plan on its own clock, <see cref="PlanTime"/>: the run's elapsed time plus the time
/// bursts saved by ending before their <c>During</c>, so the stages after a burst start when it ends.
/// </remarks>
internal sealed class CopyController : ILoadDriver
{
    // Copy slot states. A slot's loop ends only by moving Stopping to Idle, so the controller can revive a copy that
    // has not yet noticed it was stopped, and never runs two loops that both start requests for one copy number.
    private const int Idle = 0;
    private const int Running = 1;
    private const int Stopping = 2;

    private static readonly TimeSpan ControlInterval = TimeSpan.FromMilliseconds(50);

    private readonly ScenarioRun _run;
    private readonly LoadPlan _plan;
    private readonly FailureBackoff? _backoff;
    private readonly int[] _copyStates;
    private long _started;
    private int _runningCopies;
    private long _savedTicks;
    private BurstCopies? _burst;

    public CopyController(ScenarioRun run, LoadPlan plan, FailureBackoff? backoff)
    {
        _run = run;
        _plan = plan;
        _backoff = backoff;
        _copyStates = new int[plan.MaxCopies];
    }

    public long MissedStarts => 0;

    public TimeSpan Duration => _plan.Duration - Saved;

    private TimeSpan Saved => TimeSpan.FromTicks(Interlocked.Read(ref _savedTicks));

    private TimeSpan PlanTime => _run.Elapsed + Saved;

    public int Users(TimeSpan elapsed) =>
        Volatile.Read(ref _runningCopies) + (Volatile.Read(ref _burst) is { } burst ? burst.Running : 0);

    public async Task DriveAsync()
    {
        var stop = _run.StopStarting;
        while (!stop.IsCancellationRequested)
        {
            var at = PlanTime;
            if (at >= _plan.Duration)
            {
                break;
            }

            if (_plan.BurstAt(at) is { } burst)
            {
                await RunBurstAsync(burst, at, stop).ConfigureAwait(false);
                continue;
            }

            SetRunningCopies(_plan.TargetCopies(at));

            // Wake at the stage's end too, so that a burst after it is released on time.
            await Waits.Delay(Waits.Min(ControlInterval, _plan.StageEnd(at) - at), stop).ConfigureAwait(false);
        }

        Volatile.Write(ref _runningCopies, 0);
        Volatile.Write(ref _burst, null);
    }

    private async Task RunBurstAsync(LoadPlan.Burst stage, TimeSpan at, CancellationToken stop)
    {
        // Copies of earlier stages finish their current request and stop, as at a ramp-down.
        SetRunningCopies(0);
        var burst = new BurstCopies(stage.Copies);
        Volatile.Write(ref _burst, burst);
        for (var copy = 0; copy < stage.Copies; copy++)
        {
            _run.WorkerStarted();
            var number = copy;
            _ = Task.Run(() => RunBurstCopyAsync(number, stage.Iterations, burst));
        }

        await Waits.WaitAsync(burst.Done, stage.End - at, stop).ConfigureAwait(false);

        // Done, cut at During, or the run stopped: a copy still running finishes its current request and starts no more.
        burst.Cut();
        Volatile.Write(ref _burst, null);

        // The rest of the plan moves earlier by the time the burst saved; a stopped run has no rest.
        var now = PlanTime;
        if (now < stage.End && !stop.IsCancellationRequested)
        {
            Interlocked.Add(ref _savedTicks, (stage.End - now).Ticks);
        }
    }

    // Copies 0..running-1 run; growing starts the next numbers, shrinking stops the highest, so numbers stay stable.
    private void SetRunningCopies(int target)
    {
        var running = _runningCopies;
        for (; running < target; running++)
        {
            if (Interlocked.CompareExchange(ref _copyStates[running], Running, Stopping) == Stopping)
            {
                continue;
            }

            Volatile.Write(ref _copyStates[running], Running);
            _run.WorkerStarted();
            var copy = running;
            _ = Task.Run(() => RunCopyAsync(copy));
        }

        for (; running > target; running--)
        {
            Interlocked.CompareExchange(ref _copyStates[running - 1], Stopping, Running);
        }

        Volatile.Write(ref _runningCopies, running);
    }

    private async Task RunCopyAsync(int copy)
    {
        var stop = _run.StopStarting;
        var connectionFailures = 0;
        try
        {
            while (!stop.IsCancellationRequested)
            {
                if (Volatile.Read(ref _copyStates[copy]) == Stopping
                    && Interlocked.CompareExchange(ref _copyStates[copy], Idle, Stopping) == Stopping)
                {
                    return;
                }

                var result = await RequestAsync(copy).ConfigureAwait(false);
                if (BackoffAfter(result, ref connectionFailures) is { } wait)
                {
                    await Waits.Delay(wait, stop).ConfigureAwait(false);
                }
            }
        }
        finally
        {
            _run.WorkerExited();
        }
    }

    private async Task RunBurstCopyAsync(int copy, int iterations, BurstCopies burst)
    {
        var stop = _run.StopStarting;
        var connectionFailures = 0;
        try
        {
            for (var i = 0; i < iterations && !stop.IsCancellationRequested && !burst.IsCut; i++)
            {
                var result = await RequestAsync(copy).ConfigureAwait(false);
                if (BackoffAfter(result, ref connectionFailures) is { } wait && i + 1 < iterations)
                {
                    await Waits.Delay(wait, stop).ConfigureAwait(false);
                }
            }
        }
        finally
        {
            burst.CopyDone();
            _run.WorkerExited();
        }
    }

    /// <summary>One request of a copy; the copy's next one starts when this one has completed.</summary>
    private async Task<StepResult> RequestAsync(int copy)
    {
        _run.RequestStarting();
        var request = _run.ExecuteAsync(copy, Interlocked.Increment(ref _started) - 1, intendedStart: null);
        if (request.IsCompleted)
        {
            // A step that completes synchronously would otherwise keep this thread forever.
            await Task.Yield();
        }

        return await request.ConfigureAwait(false);
    }

    /// <summary>
    /// How long a copy waits before its next request: after a connection failure, the backoff for the streak it
    /// extends; after anything else nothing, and the streak ends. A waiting copy has no request in flight.
    /// </summary>
    private TimeSpan? BackoffAfter(StepResult result, ref int connectionFailures)
    {
        if (_backoff is null || result.IsSuccess || !result.IsConnectionFailure)
        {
            connectionFailures = 0;
            return null;
        }

        connectionFailures = connectionFailures == int.MaxValue ? int.MaxValue : connectionFailures + 1;
        return _backoff.WaitAfter(connectionFailures, Random.Shared.NextDouble());
    }

    /// <summary>The copies of one burst: how many are still running, and whether the stage was cut at its During.</summary>
    private sealed class BurstCopies(int copies)
    {
        private readonly TaskCompletionSource _done = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private int _running = copies;
        private int _cut;

        public Task Done => _done.Task;

        /// <summary>Copies still running their iterations; 0 once the stage is cut.</summary>
        public int Running => IsCut ? 0 : Math.Max(0, Volatile.Read(ref _running));

        public bool IsCut => Volatile.Read(ref _cut) != 0;

        public void Cut() => Volatile.Write(ref _cut, 1);

        public void CopyDone()
        {
            if (Interlocked.Decrement(ref _running) == 0)
            {
                _done.TrySetResult();
            }
        }
    }
}
