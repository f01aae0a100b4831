namespace Harness.LoadTests.Engine;

/// <summary>
/// The closed model: copies (virtual users) each loop over the scenario, one request after another, and a controller
/// loop keeps the number of running copies at the plan's target.
/// </summary>
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
    private readonly int[] _copyStates;
    private long _started;
    private int _runningCopies;

    public CopyController(ScenarioRun run, LoadPlan plan)
    {
        _run = run;
        _plan = plan;
        _copyStates = new int[plan.MaxCopies];
    }

    public long MissedStarts => 0;

    public int Users(TimeSpan elapsed) => Volatile.Read(ref _runningCopies);

    public async Task DriveAsync()
    {
        var stop = _run.StopStarting;
        while (!stop.IsCancellationRequested)
        {
            var now = _run.Elapsed;
            if (now >= _plan.Duration)
            {
                break;
            }

            SetRunningCopies(_plan.TargetCopies(now));
            await Waits.Delay(Waits.Min(ControlInterval, _plan.Duration - now), stop).ConfigureAwait(false);
        }

        Volatile.Write(ref _runningCopies, 0);
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
        try
        {
            while (!stop.IsCancellationRequested)
            {
                if (Volatile.Read(ref _copyStates[copy]) == Stopping
                    && Interlocked.CompareExchange(ref _copyStates[copy], Idle, Stopping) == Stopping)
                {
                    return;
                }

                _run.RequestStarting();
                var request = _run.ExecuteAsync(copy, Interlocked.Increment(ref _started) - 1, intendedStart: null);
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
            _run.WorkerExited();
        }
    }
}
