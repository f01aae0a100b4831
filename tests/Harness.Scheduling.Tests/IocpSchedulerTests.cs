using System.Collections.Concurrent;
using System.Diagnostics;

namespace Harness.Scheduling.Tests;

public sealed class IocpSchedulerTests
{
    private static readonly TimeSpan WaitLimit = TimeSpan.FromSeconds(10);

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void CpuBoundItems_NeverRunMoreThanTheLimitAtOnce_OnOnlyThatManyThreads(int concurrency)
    {
        using var scheduler = new IocpScheduler(concurrency, maxThreads: 64, TimeSpan.FromSeconds(30));
        var itemCount = 4 * concurrency;
        var running = 0;
        var peak = 0;
        var threadIds = new ConcurrentDictionary<int, bool>();
        using var done = new CountdownEvent(itemCount);

        for (var i = 0; i < itemCount; i++)
        {
            scheduler.Post(_ =>
            {
                var now = Interlocked.Increment(ref running);
                InterlockedMax(ref peak, now);
                threadIds.TryAdd(Environment.CurrentManagedThreadId, true);
                Poll.Spin(TimeSpan.FromMilliseconds(60));
                Interlocked.Decrement(ref running);
                done.Signal();
            }, null);
        }

        Assert.True(done.Wait(WaitLimit));
        Assert.Equal(concurrency, Volatile.Read(ref peak));
        Assert.Equal(concurrency, scheduler.PeakActiveCount);
        Assert.Equal(concurrency, threadIds.Count);
        Assert.Equal(concurrency, scheduler.GetCounters().ThreadsTotal);
    }

    [Fact]
    public void ItemsBlockingInARegion_GiveTheirSlotToOthers()
    {
        using var scheduler = new IocpScheduler(concurrency: 1, maxThreads: 64, TimeSpan.FromSeconds(30));
        const int ItemCount = 10;
        var threadIds = new ConcurrentDictionary<int, bool>();
        using var done = new CountdownEvent(ItemCount);

        var stopwatch = Stopwatch.StartNew();
        for (var i = 0; i < ItemCount; i++)
        {
            scheduler.Post(_ =>
            {
                threadIds.TryAdd(Environment.CurrentManagedThreadId, true);
                using (BlockingRegion.Enter())
                {
                    Thread.Sleep(200);
                }

                done.Signal();
            }, null);
        }

        Assert.True(done.Wait(WaitLimit));
        stopwatch.Stop();

        // Serialized, the items would take 10 x 200 ms.
        Assert.True(stopwatch.ElapsedMilliseconds < 1000, $"took {stopwatch.ElapsedMilliseconds} ms");
        Assert.Equal(ItemCount, threadIds.Count);
    }

    [Fact]
    public void ItemsBlockingOutsideARegion_KeepTheirSlot()
    {
        using var scheduler = new IocpScheduler(concurrency: 1, maxThreads: 64, TimeSpan.FromSeconds(30));
        var running = 0;
        var peak = 0;
        using var done = new CountdownEvent(3);

        for (var i = 0; i < 3; i++)
        {
            scheduler.Post(_ =>
            {
                InterlockedMax(ref peak, Interlocked.Increment(ref running));
                Thread.Sleep(50);
                Interlocked.Decrement(ref running);
                done.Signal();
            }, null);
        }

        Assert.True(done.Wait(WaitLimit));
        Assert.Equal(1, Volatile.Read(ref peak));
        Assert.Equal(1, scheduler.GetCounters().ThreadsTotal);
    }

    [Fact]
    public void LeavingARegion_RetakesTheSlot_EvenAboveTheLimit()
    {
        using var scheduler = new IocpScheduler(concurrency: 1, maxThreads: 8, TimeSpan.FromSeconds(30));
        using var firstBlocked = new ManualResetEventSlim();
        using var leaveRegion = new ManualResetEventSlim();
        using var firstBack = new ManualResetEventSlim();
        using var secondRunning = new ManualResetEventSlim();
        using var finish = new ManualResetEventSlim();
        using var done = new CountdownEvent(2);

        scheduler.Post(_ =>
        {
            using (BlockingRegion.Enter())
            {
                firstBlocked.Set();
                leaveRegion.Wait(WaitLimit);
            }

            firstBack.Set();
            finish.Wait(WaitLimit);
            done.Signal();
        }, null);
        Assert.True(firstBlocked.Wait(WaitLimit));
        scheduler.Post(_ =>
        {
            secondRunning.Set();
            finish.Wait(WaitLimit);
            done.Signal();
        }, null);
        Assert.True(secondRunning.Wait(WaitLimit));
        var activeWhileFirstBlocks = scheduler.ActiveCount;
        leaveRegion.Set();
        Assert.True(firstBack.Wait(WaitLimit));
        var activeAfterFirstReturns = scheduler.ActiveCount;
        finish.Set();

        Assert.True(done.Wait(WaitLimit));
        Assert.Equal(1, activeWhileFirstBlocks);
        Assert.Equal(2, activeAfterFirstReturns);
        Assert.Equal(2, scheduler.PeakActiveCount);
        Assert.True(Poll.Until(() => scheduler.ActiveCount == 0, WaitLimit));
    }

    [Fact]
    public void NextItem_GoesToTheMostRecentlyIdledThread()
    {
        const int Threads = 3;
        using var scheduler = new IocpScheduler(Threads, maxThreads: Threads, TimeSpan.FromSeconds(30));
        var gates = Enumerable.Range(0, Threads).Select(_ => new ManualResetEventSlim()).ToArray();
        var itemThreads = new int[Threads];
        using var started = new CountdownEvent(Threads);

        for (var i = 0; i < Threads; i++)
        {
            var index = i;
            scheduler.Post(_ =>
            {
                itemThreads[index] = Environment.CurrentManagedThreadId;
                started.Signal();
                gates[index].Wait(WaitLimit);
            }, null);
        }

        Assert.True(started.Wait(WaitLimit));

        // Idle the threads one at a time, first item's thread first.
        for (var i = 0; i < Threads; i++)
        {
            gates[i].Set();
            var busy = Threads - i - 1;
            Assert.True(Poll.Until(() => scheduler.GetCounters().ThreadsBusy == busy, WaitLimit));
        }

        var probeThreads = new List<int>();
        for (var probe = 0; probe < 3; probe++)
        {
            using var ran = new ManualResetEventSlim();
            var threadId = 0;
            scheduler.Post(_ =>
            {
                threadId = Environment.CurrentManagedThreadId;
                ran.Set();
            }, null);
            Assert.True(ran.Wait(WaitLimit));
            Assert.True(Poll.Until(() => scheduler.GetCounters().ThreadsBusy == 0, WaitLimit));
            probeThreads.Add(Volatile.Read(ref threadId));
        }

        foreach (var gate in gates)
        {
            gate.Dispose();
        }

        Assert.Equal(3, itemThreads.Distinct().Count());
        Assert.All(probeThreads, id => Assert.Equal(itemThreads[Threads - 1], id));
    }

    [Fact]
    public void Queue_IsFirstInFirstOut()
    {
        using var scheduler = new IocpScheduler(concurrency: 1, maxThreads: 4, TimeSpan.FromSeconds(30));
        using var release = new ManualResetEventSlim();
        var order = new ConcurrentQueue<int>();
        using var done = new CountdownEvent(20);

        scheduler.Post(_ => release.Wait(WaitLimit), null);
        for (var i = 0; i < 20; i++)
        {
            scheduler.Post(s =>
            {
                order.Enqueue((int)s!);
                done.Signal();
            }, i);
        }

        release.Set();

        Assert.True(done.Wait(WaitLimit));
        Assert.Equal(Enumerable.Range(0, 20), order);
    }

    [Fact]
    public void ThreadsAboveTheLimit_RetireAfterTheIdleTimeout()
    {
        using var scheduler = new IocpScheduler(concurrency: 1, maxThreads: 16, TimeSpan.FromMilliseconds(200));
        using var done = new CountdownEvent(6);
        var grown = 0;
        for (var i = 0; i < 6; i++)
        {
            scheduler.Post(_ =>
            {
                using (BlockingRegion.Enter())
                {
                    Thread.Sleep(100);
                }

                InterlockedMax(ref grown, scheduler.GetCounters().ThreadsTotal);
                done.Signal();
            }, null);
        }

        Assert.True(done.Wait(WaitLimit));

        var shrank = Poll.Until(() => scheduler.GetCounters().ThreadsTotal == 1, TimeSpan.FromSeconds(5));

        Assert.Equal(6, grown);
        Assert.True(shrank, $"threads: {scheduler.GetCounters().ThreadsTotal}");
    }

    [Fact]
    public void Counters_ReflectABacklog()
    {
        using var scheduler = new IocpScheduler(concurrency: 2, maxThreads: 8, TimeSpan.FromSeconds(30));
        var active = 0;

        var (backlog, drained) = Backlog.Measure(scheduler, items: 7, running: 2, WaitLimit, () => active = scheduler.ActiveCount);

        Assert.Equal(new SchedulerCounters(ThreadsTotal: 2, ThreadsBusy: 2, QueueLength: 5, Completed: 0, Failed: 0), backlog);
        Assert.Equal(2, active);
        Assert.Equal(new SchedulerCounters(ThreadsTotal: 2, ThreadsBusy: 0, QueueLength: 0, Completed: 7, Failed: 0), drained);
    }

    private static void InterlockedMax(ref int target, int value)
    {
        var current = Volatile.Read(ref target);
        while (value > current)
        {
            var observed = Interlocked.CompareExchange(ref target, value, current);
            if (observed == current)
            {
                return;
            }

            current = observed;
        }
    }
}
