using Harness.ServiceOperations;

namespace Harness.Workloads.Tests;

public sealed class OperationTrackerTests
{
    [Fact]
    public void Begin_CountsExecutingAndPeak_AndDisposeCountsTheOutcome()
    {
        var tracker = new OperationTracker(["a", "b"]);

        var first = tracker.Begin("a");
        var second = tracker.Begin("a");
        second.Fail();
        second.Dispose();
        first.Dispose();
        first.Dispose(); // a second dispose is ignored
        using (tracker.Begin("a"))
        {
        }

        var a = tracker.Counters.Single(c => c.Key == "a").Value;
        Assert.Equal(0, a.Executing);
        Assert.Equal(2, a.Peak);
        Assert.Equal(2, a.Completed);
        Assert.Equal(1, a.Failed);
        Assert.Equal(0, tracker.Counters.Single(c => c.Key == "b").Value.Peak);
    }

    [Fact]
    public async Task Peak_IsExactUnderConcurrentUse()
    {
        var tracker = new OperationTracker(["op"]);
        using var gate = new Barrier(4);

        await Task.WhenAll(Enumerable.Range(0, 4).Select(_ => Task.Factory.StartNew(
            () =>
            {
                using var scope = tracker.Begin("op");
                gate.SignalAndWait(TimeSpan.FromSeconds(10));
            },
            TaskCreationOptions.LongRunning)));

        var counter = tracker.Counters.Single().Value;
        Assert.Equal(4, counter.Peak);
        Assert.Equal(0, counter.Executing);
        Assert.Equal(4, counter.Completed);
    }
}
