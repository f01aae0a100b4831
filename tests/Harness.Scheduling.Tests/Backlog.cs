
namespace Harness.Scheduling.Tests;

/// <summary>Builds a backlog on a scheduler whose threads are all held, and reads its counters during and after.</summary>
internal static class Backlog
{
    /// <param name="items">Items posted at once; each waits for a release.</param>
    /// <param name="running">How many of them the scheduler can run at once (its thread or slot limit).</param>
    /// <param name="whileHeld">Reads anything else of interest while the backlog stands.</param>
    public static (SchedulerCounters Held, SchedulerCounters Drained) Measure(
        IWorkScheduler scheduler, int items, int running, TimeSpan limit, Action? whileHeld = null)
    {
        using var release = new ManualResetEventSlim();
        using var started = new CountdownEvent(running);
        using var done = new CountdownEvent(items);

        for (var i = 0; i < items; i++)
        {
            scheduler.Post(_ =>
            {
                if (!started.IsSet)
                {
                    started.Signal();
                }

                release.Wait(limit);
                done.Signal();
            }, null);
        }

        Assert.True(started.Wait(limit));
        var held = scheduler.GetCounters();
        whileHeld?.Invoke();
        release.Set();
        Assert.True(done.Wait(limit));
        Assert.True(Poll.Until(() => scheduler.GetCounters().Completed == items, limit));
        return (held, scheduler.GetCounters());
    }
}
