using System.Diagnostics;
using System.Runtime.ExceptionServices;

namespace Harness.LoadTests.Engine;

/// <summary>
/// One run of one scenario. A driver loop (copy controller or arrival scheduler) starts work, a progress loop
/// reports each second, and requests update shared counters with <see cref="Interlocked"/> only, so nothing on a
/// request's path takes a lock.
/// </summary>
internal sealed class ScenarioRun
{
    // Copy slot states. A slot's loop ends only by moving Stopping to Idle, so the controller can revive a copy that
    // has not yet noticed it was stopped, and never runs two loops that both start requests for one copy number.
    private const int Idle = 0;
    private const int Running = 1;
    private const int Stopping = 2;

    private static readonly TimeSpan ControlInterval = TimeSpan.FromMilliseconds(50);
    private static readonly TimeSpan MaxScheduleSleep = TimeSpan.FromMilliseconds(100);

    // After cancelling requests that outlived the drain, how long to wait for steps that honour the token.
    private static readonly TimeSpan CancelGrace = TimeSpan.FromSeconds(1);

    private readonly Scenario _scenario;
    private readonly LoadPlan _plan;
    private readonly ILoadObserver _observer;
    private readonly long _maxFailures;
    private readonly TimeSpan _drainTimeout;
    private readonly int _maxOpenInFlight;
    private readonly CancellationTokenSource _stopStarting = new();
    private readonly CancellationTokenSource _cancelRequests = new();
    private readonly CancellationToken _requestToken;
    private readonly TaskCompletionSource _drained = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly int[] _copyStates;

    private long _startTimestamp;
    private long _started;
    private long _requests;
    private long _failures;
    private long _inFlight;
    private long _workers;
    private long _missedStarts;
    private int _runningCopies;
    private int _draining;
    private int _closed;
    private int _failureLimitReached;
    private int _callerCancelled;
    private int _lastReportedSecond;
    private TaskCompletionSource? _slotFreed;
    private Exception? _observerFailure;

    public ScenarioRun(Scenario scenario, LoadPlan plan, ILoadObserver observer, LoadRunnerOptions options)
    {
        _scenario = scenario;
        _plan = plan;
        _observer = observer;
        _maxFailures = options.MaxFailures;
        _drainTimeout = options.DrainTimeout;
        _maxOpenInFlight = options.MaxOpenRequestsInFlight;
        _requestToken = _cancelRequests.Token;
        _copyStates = new int[plan.MaxCopies];
    }

    private TimeSpan Elapsed => Stopwatch.GetElapsedTime(_startTimestamp);

    public async Task<ScenarioResult> RunAsync(CancellationToken cancellationToken)
    {
        _startTimestamp = Stopwatch.GetTimestamp();
        using var progressStop = new CancellationTokenSource();
        var progress = ReportProgressAsync(progressStop.Token);

        // Disposing the registration waits for a callback already running, so none outlives this block.
        using (cancellationToken.Register(static run => ((ScenarioRun)run!).OnCallerCancelled(), this))
        {
            await (_plan.IsOpenModel ? ScheduleArrivalsAsync() : ControlCopiesAsync()).ConfigureAwait(false);
            StopStarting();
            Volatile.Write(ref _runningCopies, 0);
            await DrainAsync(cancellationToken).ConfigureAwait(false);
        }

        await progressStop.CancelAsync().ConfigureAwait(false);
        await progress.ConfigureAwait(false);
        var elapsed = Elapsed;
        Report(_lastReportedSecond + 1, elapsed);

        if (_observerFailure is { } failure)
        {
            ExceptionDispatchInfo.Throw(failure);
        }

        return new ScenarioResult(
            _scenario.Name,
            elapsed,
            Interlocked.Read(ref _requests),
            Interlocked.Read(ref _failures),
            StoppedByFailureLimit: Volatile.Read(ref _failureLimitReached) != 0,
            Cancelled: Volatile.Read(ref _callerCancelled) != 0)
        {
            MissedStarts = Interlocked.Read(ref _missedStarts),
        };
    }

    private async Task ControlCopiesAsync()
    {
        var stop = _stopStarting.Token;
        while (!stop.IsCancellationRequested)
        {
            var now = Elapsed;
            if (now >= _plan.Duration)
            {
                return;
            }

            SetRunningCopies(_plan.TargetCopies(now));
            await Delay(Min(ControlInterval, _plan.Duration - now), stop).ConfigureAwait(false);
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
            Interlocked.Increment(ref _workers);
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
        try
        {
            while (!_stopStarting.IsCancellationRequested)
            {
                if (Volatile.Read(ref _copyStates[copy]) == Stopping
                    && Interlocked.CompareExchange(ref _copyStates[copy], Idle, Stopping) == Stopping)
                {
                    return;
                }

                Interlocked.Increment(ref _inFlight);
                var request = ExecuteAsync(copy, Interlocked.Increment(ref _started) - 1, intendedStart: null);
                if (request.IsCompleted)
                {
                    // A step that completes synchronously would otherwise keep this thread forever.
                    await Task.Yield();
                }

                await request.ConfigureAwait(false);
            }
        }
        finally
        {
            WorkerExited();
        }
    }

    private async Task ScheduleArrivalsAsync()
    {
        var stop = _stopStarting.Token;
        long next = 0;
        var total = _plan.TotalArrivals;
        while (next < total && !stop.IsCancellationRequested)
        {
            var due = _plan.ArrivalTime(next);
            var now = Elapsed;
            if (due > now)
            {
                await Delay(Min(due - now, MaxScheduleSleep), stop).ConfigureAwait(false);
                continue;
            }

            if (Interlocked.Read(ref _inFlight) >= _maxOpenInFlight)
            {
                if (now >= _plan.Duration)
                {
                    break;
                }

                await WaitForSlotAsync(stop).ConfigureAwait(false);
                continue;
            }

            // Every arrival whose time has passed starts now, however late; its intended start keeps the delay.
            StartArrival(next, due);
            next++;
        }

        CountMissedStarts(next, total);
        while (!stop.IsCancellationRequested && Elapsed < _plan.Duration)
        {
            await Delay(Min(_plan.Duration - Elapsed, MaxScheduleSleep), stop).ConfigureAwait(false);
        }
    }

    private void CountMissedStarts(long next, long total)
    {
        var cutoff = Min(Elapsed, _plan.Duration);
        long missed = 0;
        for (var k = next; k < total && _plan.ArrivalTime(k) <= cutoff; k++)
        {
            missed++;
        }

        Interlocked.Exchange(ref _missedStarts, missed);
    }

    private void StartArrival(long index, TimeSpan intendedStart)
    {
        Interlocked.Increment(ref _inFlight);
        Interlocked.Increment(ref _workers);

        // Off the scheduler's thread, so a step that blocks before its first await cannot hold up the schedule.
        ThreadPool.UnsafeQueueUserWorkItem(
            static arrival => _ = arrival.Run.RunArrivalAsync(arrival.Index, arrival.IntendedStart),
            new Arrival(this, index, intendedStart),
            preferLocal: false);
    }

    private async Task RunArrivalAsync(long index, TimeSpan intendedStart)
    {
        try
        {
            await ExecuteAsync(copyNumber: -1, index, intendedStart).ConfigureAwait(false);
        }
        finally
        {
            WorkerExited();
        }
    }

    private async Task WaitForSlotAsync(CancellationToken stop)
    {
        var waiter = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Interlocked.Exchange(ref _slotFreed, waiter);

        // A request may have finished between the caller's check and publishing the waiter.
        if (Interlocked.Read(ref _inFlight) < _maxOpenInFlight)
        {
            return;
        }

        await Task.WhenAny(waiter.Task, Task.Delay(MaxScheduleSleep, stop)).ConfigureAwait(false);
        Interlocked.CompareExchange(ref _slotFreed, null, waiter);
    }

    /// <summary>Runs one request. The caller has already counted it in flight.</summary>
    private async Task ExecuteAsync(int copyNumber, long invocation, TimeSpan? intendedStart)
    {
        var startTimestamp = Stopwatch.GetTimestamp();
        StepResult result;
        var cancelledByEngine = false;
        try
        {
            result = await _scenario.Run(new ScenarioContext(copyNumber, invocation, _requestToken)).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (_requestToken.IsCancellationRequested)
        {
            result = default;
            cancelledByEngine = true;
        }
        catch (Exception ex)
        {
            result = StepResult.Fail(ex.GetType().Name);
        }

        var endTimestamp = Stopwatch.GetTimestamp();
        Interlocked.Decrement(ref _inFlight);
        Volatile.Read(ref _slotFreed)?.TrySetResult();

        // A request the engine cancelled at the end failed because of the engine, not the target.
        if (cancelledByEngine || (!result.IsSuccess && _requestToken.IsCancellationRequested) || Volatile.Read(ref _closed) != 0)
        {
            return;
        }

        var startedAt = Stopwatch.GetElapsedTime(_startTimestamp, startTimestamp);
        var sample = new RequestSample(
            _scenario.Name,
            startedAt,
            intendedStart ?? startedAt,
            Stopwatch.GetElapsedTime(startTimestamp, endTimestamp),
            result.IsSuccess,
            result.StatusCode);
        Interlocked.Increment(ref _requests);
        if (!result.IsSuccess
            && Interlocked.Increment(ref _failures) >= _maxFailures
            && Interlocked.Exchange(ref _failureLimitReached, 1) == 0)
        {
            StopStarting();
        }

        try
        {
            _observer.OnRequest(in sample);
        }
        catch (Exception ex)
        {
            ObserverFailed(ex);
        }
    }

    private async Task ReportProgressAsync(CancellationToken stop)
    {
        var second = 1;
        while (!stop.IsCancellationRequested)
        {
            var wait = TimeSpan.FromSeconds(second) - Elapsed;
            if (wait > TimeSpan.Zero)
            {
                await Delay(wait, stop).ConfigureAwait(false);
                continue;
            }

            Report(second, Elapsed);
            second++;
        }
    }

    private void Report(int second, TimeSpan elapsed)
    {
        _lastReportedSecond = second;
        int users;
        if (_stopStarting.IsCancellationRequested)
        {
            users = 0;
        }
        else if (_plan.IsOpenModel)
        {
            users = (int)Math.Round(_plan.TargetRatePerSecond(elapsed), MidpointRounding.AwayFromZero);
        }
        else
        {
            users = Volatile.Read(ref _runningCopies);
        }

        var progress = new LoadProgress(
            _scenario.Name,
            second,
            elapsed,
            _plan.Duration,
            users,
            Interlocked.Read(ref _inFlight),
            Interlocked.Read(ref _requests),
            Interlocked.Read(ref _failures));
        try
        {
            _observer.OnProgress(progress);
        }
        catch (Exception ex)
        {
            ObserverFailed(ex);
        }
    }

    private async Task DrainAsync(CancellationToken cancellationToken)
    {
        Interlocked.Exchange(ref _draining, 1);
        if (Interlocked.Read(ref _workers) == 0)
        {
            _drained.TrySetResult();
        }

        if (Volatile.Read(ref _callerCancelled) == 0)
        {
            await WaitAsync(_drained.Task, _drainTimeout, cancellationToken).ConfigureAwait(false);
        }

        if (!_drained.Task.IsCompleted)
        {
            await _cancelRequests.CancelAsync().ConfigureAwait(false);
            await WaitAsync(_drained.Task, CancelGrace, CancellationToken.None).ConfigureAwait(false);
        }

        // Steps that ignore cancellation are abandoned; whatever they return later is not reported.
        Volatile.Write(ref _closed, 1);
    }

    private void WorkerExited()
    {
        if (Interlocked.Decrement(ref _workers) == 0 && Volatile.Read(ref _draining) != 0)
        {
            _drained.TrySetResult();
        }
    }

    private void OnCallerCancelled()
    {
        Volatile.Write(ref _callerCancelled, 1);

        // Callbacks run asynchronously so that no driver or step continues on the caller's thread.
        _ = _stopStarting.CancelAsync();
        _ = _cancelRequests.CancelAsync();
    }

    private void StopStarting() => _ = _stopStarting.CancelAsync();

    private void ObserverFailed(Exception exception)
    {
        if (Interlocked.CompareExchange(ref _observerFailure, exception, null) is null)
        {
            StopStarting();
        }
    }

    private static async Task WaitAsync(Task task, TimeSpan timeout, CancellationToken cancellationToken)
    {
        try
        {
            await task.WaitAsync(timeout, cancellationToken).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            // The drain ran out of time; the caller cancels what is left.
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The caller cancelled the run while it drained.
        }
    }

    // Whole milliseconds, rounded up: Task.Delay truncates, and a 0 ms delay would spin. Cancellation just ends the wait.
    private static async Task Delay(TimeSpan wait, CancellationToken cancellationToken)
    {
        var milliseconds = Math.Max(1, Math.Ceiling(wait.TotalMilliseconds));
        await Task.Delay(TimeSpan.FromMilliseconds(milliseconds), cancellationToken)
            .ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
    }

    private static TimeSpan Min(TimeSpan a, TimeSpan b) => a < b ? a : b;

    private readonly record struct Arrival(ScenarioRun Run, long Index, TimeSpan IntendedStart);
}
