using System.Collections.Concurrent;
using System.Diagnostics;

namespace Harness.Scheduling.Tests;

public sealed class LeanAutoResetEventTests
{
    private static readonly TimeSpan WaitLimit = TimeSpan.FromSeconds(10);

    [Fact]
    public void Wait_OnASetEvent_ReturnsAtOnceAndResetsIt()
    {
        using var signal = new LeanAutoResetEvent(initialState: true);

        var first = signal.Wait(0);
        var second = signal.Wait(0);

        Assert.True(first);
        Assert.False(second);
        Assert.False(signal.IsSet);
    }

    [Fact]
    public void Set_WhenAlreadySet_Coalesces()
    {
        using var signal = new LeanAutoResetEvent();

        signal.Set();
        signal.Set();

        Assert.True(signal.Wait(0));
        Assert.False(signal.Wait(0));
    }

    [Fact]
    public void Wait_WithNoSet_TimesOutAndLeavesNoWaiterCounted()
    {
        using var signal = new LeanAutoResetEvent();
        var stopwatch = Stopwatch.StartNew();

        var result = signal.Wait(50);

        Assert.False(result);
        Assert.True(stopwatch.ElapsedMilliseconds >= 45, $"returned after {stopwatch.ElapsedMilliseconds} ms");
        Assert.Equal(0, signal.WaitingThreads);

        // A later Set must raise the flag rather than go to a waiter that left.
        signal.Set();
        Assert.True(signal.IsSet);
    }

    [Fact]
    public void Set_ReleasesABlockedWaiter()
    {
        using var signal = new LeanAutoResetEvent();
        var released = false;
        var waiter = new Thread(() => released = signal.Wait(10_000));
        waiter.Start();
        Assert.True(Poll.Until(() => signal.WaitingThreads == 1, WaitLimit));

        signal.Set();

        Assert.True(waiter.Join(WaitLimit));
        Assert.True(released);
        Assert.False(signal.IsSet);
        Assert.Equal(0, signal.WaitingThreads);
    }

    [Fact]
    public void PingPong_BetweenTwoThreads_LosesNoWakeUp()
    {
        using var ping = new LeanAutoResetEvent();
        using var pong = new LeanAutoResetEvent();
        const int RoundTrips = 20_000;
        var echoed = 0;
        var echo = new Thread(() =>
        {
            for (var i = 0; i < RoundTrips; i++)
            {
                if (!ping.Wait(5_000))
                {
                    return;
                }

                echoed++;
                pong.Set();
            }
        });
        echo.Start();

        var completed = 0;
        for (var i = 0; i < RoundTrips; i++)
        {
            ping.Set();
            if (!pong.Wait(5_000))
            {
                break;
            }

            completed++;
        }

        Assert.True(echo.Join(WaitLimit));
        Assert.Equal(RoundTrips, completed);
        Assert.Equal(RoundTrips, echoed);
    }

    [Fact]
    public void ProducersAndConsumers_EveryItemIsConsumed_AndNoWaitTimesOut()
    {
        using var signal = new LeanAutoResetEvent();
        var queue = new ConcurrentQueue<int>();
        const int Producers = 2;
        const int Consumers = 3;
        const int PerProducer = 100_000;
        var consumed = 0;
        var timeouts = 0;
        var producing = Producers;

        var consumers = Enumerable.Range(0, Consumers).Select(_ => new Thread(() =>
        {
            // Bounded: every item is taken once, and each wait is capped.
            while (true)
            {
                while (queue.TryDequeue(out _))
                {
                    Interlocked.Increment(ref consumed);
                }

                if (Volatile.Read(ref producing) == 0 && queue.IsEmpty)
                {
                    // Pass the final signal on to the next sleeping consumer.
                    signal.Set();
                    return;
                }

                // Producers post every few microseconds; a five-second silence is a lost wake-up.
                if (!signal.Wait(5_000))
                {
                    Interlocked.Increment(ref timeouts);
                    return;
                }
            }
        })).ToList();
        var producers = Enumerable.Range(0, Producers).Select(p => new Thread(() =>
        {
            var random = new Random(p);
            for (var i = 0; i < PerProducer; i++)
            {
                queue.Enqueue(i);
                signal.Set();
                if (random.Next(1000) == 0)
                {
                    Thread.Sleep(1);
                }
            }

            if (Interlocked.Decrement(ref producing) == 0)
            {
                signal.Set();
            }
        })).ToList();

        consumers.ForEach(t => t.Start());
        producers.ForEach(t => t.Start());
        producers.ForEach(t => Assert.True(t.Join(WaitLimit)));
        consumers.ForEach(t => Assert.True(t.Join(WaitLimit)));

        Assert.Equal(0, timeouts);
        Assert.Equal(Producers * PerProducer, consumed);
    }

    [Fact]
    public void TimedOutWaiters_NeverSwallowASet()
    {
        // Waiters with 1 ms timeouts withdraw constantly; each Set must still end in exactly one successful wait.
        using var signal = new LeanAutoResetEvent();
        const int Sets = 3_000;
        var successes = 0;
        var stop = false;
        var waiters = Enumerable.Range(0, 4).Select(_ => new Thread(() =>
        {
            var deadline = Stopwatch.StartNew();
            while (!Volatile.Read(ref stop) && deadline.Elapsed < WaitLimit)
            {
                if (signal.Wait(1))
                {
                    Interlocked.Increment(ref successes);
                }
            }
        })).ToList();
        waiters.ForEach(t => t.Start());

        var delivered = 0;
        for (var i = 0; i < Sets; i++)
        {
            signal.Set();
            if (!Poll.UntilSpinning(() => Volatile.Read(ref successes) == i + 1, TimeSpan.FromSeconds(2)))
            {
                break;
            }

            delivered++;
        }

        Volatile.Write(ref stop, true);
        waiters.ForEach(t => Assert.True(t.Join(WaitLimit)));

        Assert.Equal(Sets, delivered);
        Assert.Equal(Sets, successes);
        Assert.Equal(0, signal.WaitingThreads);
    }
}
