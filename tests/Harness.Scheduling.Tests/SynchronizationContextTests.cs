namespace Harness.Scheduling.Tests;

public sealed class SynchronizationContextTests
{
    private static readonly TimeSpan WaitLimit = TimeSpan.FromSeconds(10);

    public static TheoryData<SchedulingMode> Modes => SchedulerBehaviourTests.Modes;

    [Theory]
    [MemberData(nameof(Modes))]
    public async Task RunAsync_ContinuationAfterAnAwait_RunsOnTheScheduler(SchedulingMode mode)
    {
        using var scheduler = SchedulerBehaviourTests.CreateSingleThreaded(mode);
        var schedulerThread = await OwnThreadIdAsync(scheduler);
        var context = WorkSchedulerSynchronizationContext.For(scheduler);

        var (before, after, contextAfter) = await scheduler.RunAsync(async () =>
        {
            var threadBefore = CurrentThread();
            await Task.Delay(30);
            return (threadBefore, CurrentThread(), SynchronizationContext.Current);
        }).WaitAsync(WaitLimit);

        Assert.Same(context, contextAfter);
        Assert.True(Poll.Until(() => scheduler.GetCounters().Completed >= 3, WaitLimit), "the continuation was not posted to the scheduler");
        if (mode == SchedulingMode.ThreadPool)
        {
            Assert.True(before.IsThreadPool);
            Assert.True(after.IsThreadPool);
        }
        else
        {
            Assert.Equal(schedulerThread, before.Id);
            Assert.Equal(schedulerThread, after.Id);
        }
    }

    [Theory]
    [MemberData(nameof(Modes))]
    public async Task RunAsync_PassesOnAnExceptionThrownAfterAnAwait(SchedulingMode mode)
    {
        using var scheduler = SchedulerBehaviourTests.CreateSingleThreaded(mode);
        var thrown = new InvalidOperationException("operation failure");

        var task = scheduler.RunAsync<int>(async () =>
        {
            await Task.Delay(10);
            throw thrown;
        });

        var caught = await Assert.ThrowsAsync<InvalidOperationException>(() => task.WaitAsync(WaitLimit));
        Assert.Same(thrown, caught);
    }

    [Fact]
    public async Task RunAsync_PassesOnCancellation()
    {
        using var scheduler = new CustomThreadPool(minThreads: 1, maxThreads: 1, TimeSpan.FromSeconds(30));
        using var cancellation = new CancellationTokenSource();
        cancellation.Cancel();

        var task = scheduler.RunAsync(() => Task.Delay(1000, cancellation.Token));

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => task.WaitAsync(WaitLimit));
        Assert.True(task.IsCanceled);
    }

    [Fact]
    public async Task RunAsync_FlowsAsyncLocals()
    {
        using var scheduler = new IocpScheduler(concurrency: 1, maxThreads: 1, TimeSpan.FromSeconds(30));
        var local = new AsyncLocal<string>();
        local.Value = "caller";

        var seen = await scheduler.RunAsync(() => Task.FromResult(local.Value)).WaitAsync(WaitLimit);

        Assert.Equal("caller", seen);
    }

    [Fact]
    public void Send_FromAnotherThread_RunsOnTheSchedulerAndRethrows()
    {
        using var scheduler = new CustomThreadPool(minThreads: 1, maxThreads: 1, TimeSpan.FromSeconds(30));
        var context = WorkSchedulerSynchronizationContext.For(scheduler);
        var ranOn = 0;
        SynchronizationContext? currentInside = null;

        context.Send(_ =>
        {
            ranOn = Environment.CurrentManagedThreadId;
            currentInside = SynchronizationContext.Current;
        }, null);
        var error = Assert.Throws<InvalidOperationException>(() => context.Send(_ => throw new InvalidOperationException("sent"), null));

        Assert.NotEqual(Environment.CurrentManagedThreadId, ranOn);
        Assert.Same(context, currentInside);
        Assert.Equal("sent", error.Message);
    }

    [Fact]
    public void Send_OnTheContext_RunsInline()
    {
        using var scheduler = new CustomThreadPool(minThreads: 1, maxThreads: 1, TimeSpan.FromSeconds(30));
        var context = WorkSchedulerSynchronizationContext.For(scheduler);
        using var done = new ManualResetEventSlim();
        var outer = 0;
        var inner = 0;

        context.Post(_ =>
        {
            outer = Environment.CurrentManagedThreadId;

            // With a single-thread pool, anything but inline execution would deadlock here.
            context.Send(_ => inner = Environment.CurrentManagedThreadId, null);
            done.Set();
        }, null);

        Assert.True(done.Wait(WaitLimit));
        Assert.Equal(outer, inner);
    }

    [Fact]
    public void Send_FromAnItemOfASingleSlotIocpScheduler_GivesTheSlotUpInsteadOfDeadlocking()
    {
        using var scheduler = new IocpScheduler(concurrency: 1, maxThreads: 4, TimeSpan.FromSeconds(30));
        var context = WorkSchedulerSynchronizationContext.For(scheduler);
        using var done = new ManualResetEventSlim();
        var outer = 0;
        var inner = 0;

        // A raw item does not run on the context, so Send queues behind it and waits in a blocking region.
        scheduler.Post(_ =>
        {
            outer = Environment.CurrentManagedThreadId;
            context.Send(_ => inner = Environment.CurrentManagedThreadId, null);
            done.Set();
        }, null);

        Assert.True(done.Wait(WaitLimit));
        Assert.NotEqual(0, inner);
        Assert.NotEqual(outer, inner);
        Assert.Equal(2, scheduler.GetCounters().ThreadsTotal);
    }

    [Fact]
    public void For_ReturnsOneContextPerScheduler_AndCreateCopyReturnsItself()
    {
        using var first = new ThreadPoolScheduler();
        using var second = new ThreadPoolScheduler();

        var context = WorkSchedulerSynchronizationContext.For(first);

        Assert.Same(context, WorkSchedulerSynchronizationContext.For(first));
        Assert.NotSame(context, WorkSchedulerSynchronizationContext.For(second));
        Assert.Same(context, context.CreateCopy());
        Assert.Same(first, context.Scheduler);
    }

    private static (int Id, bool IsThreadPool) CurrentThread() =>
        (Environment.CurrentManagedThreadId, Thread.CurrentThread.IsThreadPoolThread);

    private static Task<int> OwnThreadIdAsync(IWorkScheduler scheduler)
    {
        var threadId = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        scheduler.Post(_ => threadId.SetResult(Environment.CurrentManagedThreadId), null);
        return threadId.Task.WaitAsync(WaitLimit);
    }
}
