using System.Diagnostics;
using System.Runtime.ExceptionServices;

namespace Harness.LoadTests.Engine;

/// <summary>
/// One run of one scenario: what both load models share. Its <see cref="ILoadDriver"/> decides when requests start;
/// the run executes them, counts them, reports progress each second, stops at the failure limit and drains at the end.
/// Requests update the counters with <see cref="Interlocked"/> only, so nothing on a request's path takes a lock.
/// </summary>
internal sealed class ScenarioRun
{
    // After cancelling requests that outlived the drain, how long to wait for steps that honour the token.
    private static readonly TimeSpan CancelGrace = TimeSpan.FromSeconds(1);

    // What the in-flight count becomes when the drain closes: a request that then leaves it finds it negative and knows
    // the drain has counted it already. Far enough below 0 that no number of late decrements brings it back up.
    private const long ClosedInFlight = long.MinValue / 2;

    private readonly Scenario _scenario;
    private readonly ILoadObserver _observer;
    private readonly ILoadDriver _driver;
    private readonly long _maxFailures;
    private readonly TimeSpan _drainTimeout;
    private readonly CancellationTokenSource _stopStarting = new();
    private readonly CancellationTokenSource _cancelRequests = new();
    private readonly CancellationToken _requestToken;
    private readonly TaskCompletionSource _drained = new(TaskCreationOptions.RunContinuationsAsynchronously);

    private long _startTimestamp;
    private long _requests;
    private long _failures;
    private long _inFlight;
    private long _abandoned;
    private long _inFlightAtEnd;
    private long _loadStoppedTimestamp;
    private long _givenUpTimestamp;
    private long _workers;
    private int _draining;
    private int _failureLimitReached;
    private int _callerCancelled;
    private int _lastReportedSecond;
    private Exception? _observerFailure;

    public ScenarioRun(Scenario scenario, LoadPlan plan, ILoadObserver observer, LoadRunnerOptions options)
    {
        _scenario = scenario;
        _observer = observer;
        _maxFailures = options.MaxFailures;
        _drainTimeout = options.DrainTimeout;
        _requestToken = _cancelRequests.Token;
        _driver = plan.IsOpenModel
            ? new ArrivalScheduler(this, plan, options.MaxOpenRequestsInFlight)
            : new CopyController(this, plan, options.Backoff);
    }

    /// <summary>Time since the run started.</summary>
    public TimeSpan Elapsed => Stopwatch.GetElapsedTime(_startTimestamp);

    /// <summary>Cancelled when no more requests may start: the plan's end, the failure limit, an observer failure or the caller.</summary>
    public CancellationToken StopStarting => _stopStarting.Token;

    /// <summary>Requests counted by <see cref="RequestStarting"/> and not yet complete (0 once the drain has closed).</summary>
    public long InFlight => Math.Max(0, Interlocked.Read(ref _inFlight));

    public async Task<ScenarioResult> RunAsync(CancellationToken cancellationToken)
    {
        _startTimestamp = Stopwatch.GetTimestamp();
        using var progressStop = new CancellationTokenSource();
        var progress = ReportProgressAsync(progressStop.Token);

        // Disposing the registration waits for a callback already running, so none outlives this block.
        using (cancellationToken.Register(static run => ((ScenarioRun)run!).OnCallerCancelled(), this))
        {
            await _driver.DriveAsync().ConfigureAwait(false);
            StopStartingRequests();
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
            MissedStarts = _driver.MissedStarts,
            InFlightAtEnd = Interlocked.Read(ref _inFlightAtEnd),
            Abandoned = Interlocked.Read(ref _abandoned),
        };
    }

    /// <summary>A driver's loop (a copy, an arrival) has started; the drain waits until every one has exited.</summary>
    public void WorkerStarted() => Interlocked.Increment(ref _workers);

    public void WorkerExited()
    {
        if (Interlocked.Decrement(ref _workers) == 0 && Volatile.Read(ref _draining) != 0)
        {
            _drained.TrySetResult();
        }
    }

    /// <summary>Counts a request in flight before <see cref="ExecuteAsync"/> runs it, which may be later (open model: queued).</summary>
    public void RequestStarting() => Interlocked.Increment(ref _inFlight);

    /// <summary>Runs one request. The caller has already counted it with <see cref="RequestStarting"/>.</summary>
    /// <returns>The step's result (an exception as a failure). A request the drain gave up on returns a failure of
    /// <see cref="LoadRunner.InFlightAtEndStatus"/>; one the caller cancelled, a failure that is not counted.</returns>
    public async Task<StepResult> ExecuteAsync(int copyNumber, long invocation, TimeSpan? intendedStart)
    {
        var startTimestamp = Stopwatch.GetTimestamp();
        StepResult result;
        var cancelledByEngine = false;
        try
        {
            result = await _scenario.Run(new ScenarioContext(copyNumber, invocation, _requestToken) { Target = _scenario.Target }).ConfigureAwait(false);
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

        // Negative: the drain closed while the step ran and has counted it among those still in flight.
        if (Interlocked.Decrement(ref _inFlight) < 0)
        {
            return result;
        }

        // A request the engine cancelled failed because of the engine, not the target: at the drain's end it is a
        // failure of its own status, ended when the engine gave up on it; cancelled by the caller, it is not counted.
        if (cancelledByEngine || (!result.IsSuccess && _requestToken.IsCancellationRequested))
        {
            if (Volatile.Read(ref _callerCancelled) != 0)
            {
                Interlocked.Increment(ref _abandoned);
                return result;
            }

            Interlocked.Increment(ref _inFlightAtEnd);
            result = StepResult.Fail(LoadRunner.InFlightAtEndStatus);
            endTimestamp = Math.Min(endTimestamp, Volatile.Read(ref _givenUpTimestamp));
        }

        var startedAt = Stopwatch.GetElapsedTime(_startTimestamp, startTimestamp);
        Count(new RequestSample(
            _scenario.Name,
            startedAt,
            intendedStart ?? startedAt,
            Stopwatch.GetElapsedTime(startTimestamp, endTimestamp),
            result.IsSuccess,
            result.StatusCode,
            result.IsSuccess ? result.ServerTime : null,
            result.IsSuccess ? result.Stream : null));
        return result;
    }

    private void Count(in RequestSample sample)
    {
        Interlocked.Increment(ref _requests);
        if (!sample.IsSuccess
            && Interlocked.Increment(ref _failures) >= _maxFailures
            && Interlocked.Exchange(ref _failureLimitReached, 1) == 0)
        {
            StopStartingRequests();
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
                await Waits.Delay(wait, stop).ConfigureAwait(false);
                continue;
            }

            Report(second, Elapsed);
            second++;
        }
    }

    private void Report(int second, TimeSpan elapsed)
    {
        _lastReportedSecond = second;

        // In flight first: a copy's loop outlives its request, so read in this order a report shows no more requests
        // in flight than copies running, unless a stopped copy ends its request and exits between the two reads (the
        // other order would miss every copy that starts its loop and its request in between).
        var inFlight = InFlight;
        var open = _driver is ArrivalScheduler;
        var progress = new LoadProgress(
            _scenario.Name,
            second,
            elapsed,
            _driver.Duration,
            _stopStarting.IsCancellationRequested ? 0 : _driver.Users(elapsed),
            inFlight,
            Interlocked.Read(ref _requests),
            Interlocked.Read(ref _failures))
        {
            RunningUsers = open ? 0 : (int)Interlocked.Read(ref _workers),
            IsOpenModel = open,
        };
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
        Volatile.Write(ref _loadStoppedTimestamp, Stopwatch.GetTimestamp());
        Interlocked.Exchange(ref _draining, 1);
        if (Interlocked.Read(ref _workers) == 0)
        {
            _drained.TrySetResult();
        }

        if (Volatile.Read(ref _callerCancelled) == 0)
        {
            await Waits.WaitAsync(_drained.Task, _drainTimeout, cancellationToken).ConfigureAwait(false);
        }

        if (!_drained.Task.IsCompleted)
        {
            // Written before the cancellation, which publishes it to the steps that end by it.
            Volatile.Write(ref _givenUpTimestamp, Stopwatch.GetTimestamp());
            await _cancelRequests.CancelAsync().ConfigureAwait(false);
            await Waits.WaitAsync(_drained.Task, CancelGrace, CancellationToken.None).ConfigureAwait(false);
        }

        // Steps that ignore cancellation are given up on now; whatever they return later is not reported.
        var leftOver = Interlocked.Exchange(ref _inFlight, ClosedInFlight);
        if (leftOver <= 0)
        {
            return;
        }

        if (Volatile.Read(ref _callerCancelled) != 0)
        {
            Interlocked.Add(ref _abandoned, leftOver);
            return;
        }

        // When each started is unknown (the request path keeps no list), but not later than the load stopped: each is
        // counted as running from then to now, a lower bound of its time.
        var stoppedAt = Stopwatch.GetElapsedTime(_startTimestamp, Volatile.Read(ref _loadStoppedTimestamp));
        var waited = Stopwatch.GetElapsedTime(Volatile.Read(ref _loadStoppedTimestamp), Volatile.Read(ref _givenUpTimestamp));
        Interlocked.Add(ref _inFlightAtEnd, leftOver);
        for (var i = 0L; i < leftOver; i++)
        {
            Count(new RequestSample(_scenario.Name, stoppedAt, stoppedAt, waited, false, LoadRunner.InFlightAtEndStatus, null));
        }
    }

    private void OnCallerCancelled()
    {
        Volatile.Write(ref _callerCancelled, 1);

        // Callbacks run asynchronously so that no driver or step continues on the caller's thread.
        _ = _stopStarting.CancelAsync();
        _ = _cancelRequests.CancelAsync();
    }

    private void StopStartingRequests() => _ = _stopStarting.CancelAsync();

    private void ObserverFailed(Exception exception)
    {
        if (Interlocked.CompareExchange(ref _observerFailure, exception, null) is null)
        {
            StopStartingRequests();
        }
    }
}
