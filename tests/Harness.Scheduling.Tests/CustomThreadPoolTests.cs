using System.Collections.Concurrent;
using System.Diagnostics;

namespace Harness.Scheduling.Tests;

public sealed class CustomThreadPoolTests
{
    private static readonly TimeSpan WaitLimit = TimeSpan.FromSeconds(10);

    [Fact]
    public void MinThreads_StartWithThePool()
    {
        using var pool = new CustomThreadPool(minThreads: 3, maxThreads: 10, TimeSpan.FromSeconds(30));

        var counters = pool.GetCounters();

        Assert.Equal(3, counters.ThreadsTotal);
        Assert.True(Poll.Until(() => pool.SleepingThreads == 3, WaitLimit));
    }

    [Fact]
    public void BlockingLoad_GrowsThePoolAtOnce_ThenItShrinksToMinAfterTheIdleTimeout()
    {
        using var pool = new CustomThreadPool(minThreads: 2, maxThreads: 50, TimeSpan.FromMilliseconds(300));
        const int ItemCount = 20;
        var threadIds = new ConcurrentDictionary<int, bool>();
        using var done = new CountdownEvent(ItemCount);

        var stopwatch = Stopwatch.StartNew();
        for (var i = 0; i < ItemCount; i++)
        {
            pool.Post(_ =>
            {
                threadIds.TryAdd(Environment.CurrentManagedThreadId, true);
                Thread.Sleep(500);
                done.Signal();
            }, null);
        }

        Assert.True(done.Wait(WaitLimit));
        var allDone = stopwatch.Elapsed;
        var threadsWhenDone = pool.GetCounters().ThreadsTotal;
        var shrank = Poll.Until(() => pool.GetCounters().ThreadsTotal == 2, TimeSpan.FromSeconds(5));

        Assert.Equal(ItemCount, threadIds.Count);
        Assert.True(allDone < TimeSpan.FromMilliseconds(1500), $"took {allDone.TotalMilliseconds} ms");
        Assert.True(threadsWhenDone >= ItemCount, $"threads when done: {threadsWhenDone}");
        Assert.True(shrank, $"threads: {pool.GetCounters().ThreadsTotal}");
        Assert.True(Poll.Until(() => pool.SleepingThreads == 2, WaitLimit));
    }

    [Fact]
    public void MaxThreads_CapsGrowth_AndTheRestQueues()
    {
        using var pool = new CustomThreadPool(minThreads: 0, maxThreads: 2, TimeSpan.FromSeconds(30));

        var (backlog, drained) = Backlog.Measure(pool, items: 7, running: 2, WaitLimit);

        Assert.Equal(new SchedulerCounters(ThreadsTotal: 2, ThreadsBusy: 2, QueueLength: 5, Completed: 0, Failed: 0), backlog);
        Assert.Equal(new SchedulerCounters(ThreadsTotal: 2, ThreadsBusy: 0, QueueLength: 0, Completed: 7, Failed: 0), drained);
    }

    [Fact]
    public void PostsFromManyThreads_WithRetiringWorkers_AllRun()
    {
        // A 1 ms idle timeout keeps workers retiring and restarting throughout, racing every post.
        using var pool = new CustomThreadPool(minThreads: 0, maxThreads: 4, TimeSpan.FromMilliseconds(1));
        const int Producers = 3;
        const int PerProducer = 20_000;
        var ran = 0;
        using var done = new CountdownEvent(Producers * PerProducer);

        var producers = Enumerable.Range(0, Producers).Select(p => new Thread(() =>
        {
            var random = new Random(p);
            for (var i = 0; i < PerProducer; i++)
            {
                pool.Post(_ =>
                {
                    Interlocked.Increment(ref ran);
                    done.Signal();
                }, null);

                // Occasional pauses let the workers drain the queue and go to sleep or retire.
                if (random.Next(500) == 0)
                {
                    Thread.Sleep(random.Next(3));
                }
            }
        })).ToList();
        producers.ForEach(t => t.Start());
        producers.ForEach(t => Assert.True(t.Join(WaitLimit)));

        Assert.True(done.Wait(WaitLimit), $"ran {Volatile.Read(ref ran)} of {Producers * PerProducer}");
        Assert.True(Poll.Until(() => pool.GetCounters().Completed == Producers * PerProducer, WaitLimit));
        Assert.True(pool.GetCounters().ThreadsTotal <= 4);
    }

    [Fact]
    public void TwoItemsThatNeedEachOther_BothStart_OnATwoThreadPool()
    {
        // The first item waits for the second, so both must be running at once. The pairs arrive while the
        // workers are between items: going back to sleep, or just awake with wake-ups coalesced.
        using var pool = new CustomThreadPool(minThreads: 2, maxThreads: 2, TimeSpan.FromSeconds(30));
        using var pairDone = new AutoResetEvent(false);
        var stuck = 0;
        var pairs = 0;

        for (var i = 0; i < 3_000 && stuck == 0; i++)
        {
            var second = new ManualResetEventSlim();
            pool.Post(_ =>
            {
                if (!second.Wait(TimeSpan.FromSeconds(2)))
                {
                    Interlocked.Increment(ref stuck);
                }

                pairDone.Set();
            }, null);
            pool.Post(_ => second.Set(), null);

            Assert.True(pairDone.WaitOne(TimeSpan.FromSeconds(5)));
            pairs++;
        }

        Assert.Equal(0, stuck);
        Assert.Equal(3_000, pairs);
        Assert.Equal(2, pool.GetCounters().ThreadsTotal);
    }

    [Fact]
    public void OnePostAtATime_ToSleepingOrRetiringWorkers_IsNeverMissed()
    {
        using var pool = new CustomThreadPool(minThreads: 1, maxThreads: 3, TimeSpan.FromMilliseconds(1));
        using var ran = new AutoResetEvent(false);
        var missed = 0;

        for (var i = 0; i < 2_000; i++)
        {
            pool.Post(_ => ran.Set(), null);

            // Every post lands while the workers are waiting, timing out or retiring; a lost wake-up leaves it unrun.
            if (!ran.WaitOne(TimeSpan.FromSeconds(2)))
            {
                missed++;
                break;
            }

            if (i % 16 == 0)
            {
                Thread.Sleep(1);
            }
        }

        Assert.Equal(0, missed);
        Assert.True(pool.GetCounters().ThreadsTotal is >= 1 and <= 3);
    }
}
