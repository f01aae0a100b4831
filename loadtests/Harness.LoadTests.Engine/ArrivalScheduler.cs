namespace Harness.LoadTests.Engine;

/// <summary>
/// The open model: one loop walks the plan's arrival schedule and starts every arrival whose time has passed, whether
/// or not earlier requests have finished. The schedule itself is <see cref="LoadPlan.ArrivalTime"/>, a pure function.
/// </summary>
internal sealed class ArrivalScheduler(ScenarioRun run, LoadPlan plan, int maxInFlight) : ILoadDriver
{
    private static readonly TimeSpan MaxScheduleSleep = TimeSpan.FromMilliseconds(100);

    private TaskCompletionSource? _slotFreed;
    private long _missedStarts;

    public long MissedStarts => Interlocked.Read(ref _missedStarts);

    public TimeSpan Duration => plan.Duration;

    public int Users(TimeSpan elapsed) =>
        (int)Math.Round(plan.TargetRatePerSecond(elapsed), MidpointRounding.AwayFromZero);

    public async Task DriveAsync()
    {
        var stop = run.StopStarting;
        long next = 0;
        var total = plan.TotalArrivals;
        while (next < total && !stop.IsCancellationRequested)
        {
            var due = plan.ArrivalTime(next);
            var now = run.Elapsed;
            if (due > now)
            {
                await Waits.Delay(Waits.Min(due - now, MaxScheduleSleep), stop).ConfigureAwait(false);
                continue;
            }

            if (run.InFlight >= maxInFlight)
            {
                if (now >= plan.Duration)
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
        while (!stop.IsCancellationRequested && run.Elapsed < plan.Duration)
        {
            await Waits.Delay(Waits.Min(plan.Duration - run.Elapsed, MaxScheduleSleep), stop).ConfigureAwait(false);
        }
    }

    private void CountMissedStarts(long next, long total)
    {
        var cutoff = Waits.Min(run.Elapsed, plan.Duration);
        long missed = 0;
        for (var k = next; k < total && plan.ArrivalTime(k) <= cutoff; k++)
        {
            missed++;
        }

        Interlocked.Exchange(ref _missedStarts, missed);
    }

    private void StartArrival(long index, TimeSpan intendedStart)
    {
        run.RequestStarting();
        run.WorkerStarted();

        // Off the scheduler's thread, so a step that blocks before its first await cannot hold up the schedule.
        ThreadPool.UnsafeQueueUserWorkItem(
            static arrival => _ = arrival.Scheduler.RunArrivalAsync(arrival.Index, arrival.IntendedStart),
            new Arrival(this, index, intendedStart),
            preferLocal: false);
    }

    private async Task RunArrivalAsync(long index, TimeSpan intendedStart)
    {
        try
        {
            await run.ExecuteAsync(copyNumber: -1, index, intendedStart).ConfigureAwait(false);
        }
        finally
        {
            Volatile.Read(ref _slotFreed)?.TrySetResult();
            run.WorkerExited();
        }
    }

    private async Task WaitForSlotAsync(CancellationToken stop)
    {
        var waiter = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Interlocked.Exchange(ref _slotFreed, waiter);

        // A request may have finished between the caller's check and publishing the waiter.
        if (run.InFlight < maxInFlight)
        {
            return;
        }

        await Task.WhenAny(waiter.Task, Task.Delay(MaxScheduleSleep, stop)).ConfigureAwait(false);
        Interlocked.CompareExchange(ref _slotFreed, null, waiter);
    }

    private readonly record struct Arrival(ArrivalScheduler Scheduler, long Index, TimeSpan IntendedStart);
}
