namespace Harness.Scheduling.Tests;

/// <summary>Behaviour every <see cref="IWorkScheduler"/> shares, checked for each mode.</summary>
public sealed class SchedulerBehaviourTests
{
    private static readonly TimeSpan WaitLimit = TimeSpan.FromSeconds(10);

    public static TheoryData<SchedulingMode> Modes => [SchedulingMode.ThreadPool, SchedulingMode.Iocp, SchedulingMode.CustomPool];

    [Theory]
    [MemberData(nameof(Modes))]
    public void ThrowingItem_IsCountedAndReported_AndLaterItemsStillRun(SchedulingMode mode)
    {
        using var scheduler = CreateSingleThreaded(mode);
        var thrown = new InvalidOperationException("work item failure");
        Exception? reported = null;
        using var reportedSignal = new ManualResetEventSlim();
        scheduler.UnhandledException += ex =>
        {
            reported = ex;
            reportedSignal.Set();
        };
        var threadIds = new int[6];
        using var done = new CountdownEvent(5);

        scheduler.Post(_ =>
        {
            threadIds[0] = Environment.CurrentManagedThreadId;
            throw thrown;
        }, null);
        for (var i = 1; i <= 5; i++)
        {
            scheduler.Post(s =>
            {
                threadIds[(int)s!] = Environment.CurrentManagedThreadId;
                done.Signal();
            }, i);
        }

        Assert.True(reportedSignal.Wait(WaitLimit));
        Assert.True(done.Wait(WaitLimit));
        Assert.True(Poll.Until(() => scheduler.GetCounters().Completed == 6, WaitLimit));
        var counters = scheduler.GetCounters();

        Assert.Same(thrown, reported);
        Assert.Equal(1, counters.Failed);
        Assert.Equal(6, counters.Completed);
        if (mode != SchedulingMode.ThreadPool)
        {
            // The scheduler owns one thread here: it survived the exception and ran everything after it.
            Assert.All(threadIds, id => Assert.Equal(threadIds[0], id));
            Assert.Equal(1, counters.ThreadsTotal);
        }
    }

    [Theory]
    [MemberData(nameof(Modes))]
    public void ThrowingHandler_DoesNotStopTheScheduler(SchedulingMode mode)
    {
        using var scheduler = CreateSingleThreaded(mode);
        scheduler.UnhandledException += _ => throw new InvalidOperationException("handler failure");
        using var ran = new ManualResetEventSlim();

        scheduler.Post(_ => throw new InvalidOperationException("item failure"), null);
        scheduler.Post(_ => ran.Set(), null);

        Assert.True(ran.Wait(WaitLimit));
        Assert.True(Poll.Until(() => scheduler.GetCounters() is { Completed: 2, Failed: 1 }, WaitLimit));
    }

    [Theory]
    [MemberData(nameof(Modes))]
    public void Post_AfterDispose_Throws(SchedulingMode mode)
    {
        var scheduler = CreateSingleThreaded(mode);

        scheduler.Dispose();

        Assert.Throws<ObjectDisposedException>(() => scheduler.Post(_ => { }, null));
    }

    [Theory]
    [InlineData(SchedulingMode.Iocp)]
    [InlineData(SchedulingMode.CustomPool)]
    public void Dispose_LetsEveryOwnedThreadExit(SchedulingMode mode)
    {
        var scheduler = mode == SchedulingMode.Iocp
            ? (IWorkScheduler)new IocpScheduler(concurrency: 1, maxThreads: 8, TimeSpan.FromSeconds(30))
            : new CustomThreadPool(minThreads: 4, maxThreads: 8, TimeSpan.FromSeconds(30));
        using var done = new CountdownEvent(4);
        for (var i = 0; i < 4; i++)
        {
            scheduler.Post(_ =>
            {
                using (BlockingRegion.Enter())
                {
                    Thread.Sleep(20);
                }

                done.Signal();
            }, null);
        }

        Assert.True(done.Wait(WaitLimit));
        var before = scheduler.GetCounters().ThreadsTotal;

        scheduler.Dispose();

        Assert.Equal(4, before);
        Assert.True(Poll.Until(() => scheduler.GetCounters().ThreadsTotal == 0, WaitLimit), $"threads: {scheduler.GetCounters().ThreadsTotal}");
    }

    [Fact]
    public void ThreadPoolCounters_ShowBusyThreadsAndThisSchedulersItems()
    {
        using var scheduler = new ThreadPoolScheduler();
        using var release = new ManualResetEventSlim();
        using var started = new CountdownEvent(2);
        using var done = new CountdownEvent(2);
        for (var i = 0; i < 2; i++)
        {
            scheduler.Post(_ =>
            {
                started.Signal();
                release.Wait(WaitLimit);
                done.Signal();
            }, null);
        }

        Assert.True(started.Wait(WaitLimit));
        var whileBlocked = scheduler.GetCounters();
        release.Set();
        Assert.True(done.Wait(WaitLimit));
        Assert.True(Poll.Until(() => scheduler.GetCounters().Completed == 2, WaitLimit));

        Assert.True(whileBlocked.ThreadsBusy >= 2, $"busy: {whileBlocked.ThreadsBusy}");
        Assert.True(whileBlocked.ThreadsTotal >= whileBlocked.ThreadsBusy);
        Assert.Equal(0, whileBlocked.Completed);
    }

    // One thread where the mode allows it, so a test can tell whether that thread survived.
    internal static IWorkScheduler CreateSingleThreaded(SchedulingMode mode) => mode switch
    {
        SchedulingMode.ThreadPool => new ThreadPoolScheduler(),
        SchedulingMode.Iocp => new IocpScheduler(concurrency: 1, maxThreads: 1, TimeSpan.FromSeconds(30)),
        SchedulingMode.CustomPool => new CustomThreadPool(minThreads: 1, maxThreads: 1, TimeSpan.FromSeconds(30)),
        _ => throw new ArgumentOutOfRangeException(nameof(mode)),
    };
}
