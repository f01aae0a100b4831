using Harness.LoadTests.Diagnostics;
using Harness.Metrics;

namespace Harness.LoadTests.Tests.Diagnostics;

public sealed class RuntimeFiguresTests
{
    private static readonly DateTime At = new(2026, 11, 28, 3, 0, 0, DateTimeKind.Utc);

    private static string Adjustments(string reason) =>
        MetricNames.WithLabel(MetricNames.RuntimeThreadPoolAdjustmentsTotal, MetricNames.ReasonLabel, reason);

    [Fact]
    public void BeforeAnyEvent_EveryReasonIsZero_AndNoMeterFigureIsMade()
    {
        var figures = new RuntimeFigures();
        var snapshot = figures.AdjustmentSnapshot();

        Assert.All(MetricNames.AdjustmentReasons, reason => Assert.Equal(0, snapshot[Adjustments(reason)]));
        Assert.Equal(0, snapshot[MetricNames.RuntimeThreadPoolStarvationThreadsTotal]);
        Assert.Empty(figures.MeterSnapshot());
        Assert.False(figures.HasMeterValues);
    }

    [Fact]
    public void MeterValues_AreRecordedUnderTheContractsNames_TaggedSeriesSummed_LatestKept()
    {
        var figures = new RuntimeFigures();

        figures.MeterValue("dotnet.thread_pool.thread.count", "", 4);
        figures.MeterValue("dotnet.thread_pool.thread.count", "", 7);
        figures.MeterValue("dotnet.thread_pool.queue.length", "", 12);
        figures.MeterValue("dotnet.thread_pool.work_item.count", "", 1_000);
        figures.MeterValue("dotnet.monitor.lock_contentions", "", 3);
        figures.MeterValue("dotnet.process.cpu.time", "cpu.mode=user", 1.5);
        figures.MeterValue("dotnet.process.cpu.time", "cpu.mode=system", 0.25);
        figures.MeterValue("dotnet.process.memory.working_set", "", 50e6);
        figures.MeterValue("dotnet.gc.last_collection.heap.size", "gc.heap.generation=gen0", 1_000);
        figures.MeterValue("dotnet.gc.last_collection.heap.size", "gc.heap.generation=gen2", 2_000);
        figures.MeterValue("dotnet.exceptions", "", 9);
        figures.MeterValue("dotnet.thread_pool.queue.length", "", 12);
        var snapshot = figures.MeterSnapshot();

        Assert.True(figures.HasMeterValues);
        Assert.Equal(7, snapshot[MetricNames.RuntimeThreadPoolThreads]);
        Assert.Equal(12, snapshot[MetricNames.RuntimeThreadPoolQueueLength]);
        Assert.Equal(1_000, snapshot[MetricNames.RuntimeThreadPoolWorkItemsTotal]);
        Assert.Equal(3, snapshot[MetricNames.RuntimeLockContentionsTotal]);
        Assert.Equal(1.75, snapshot[MetricNames.ProcessCpuSecondsTotal]);
        Assert.Equal(50e6, snapshot[MetricNames.ProcessWorkingSetBytes]);
        Assert.Equal(3_000, snapshot[MetricNames.GcHeapBytes]);
        Assert.DoesNotContain(snapshot.Keys, key => key.Contains("exception", StringComparison.Ordinal));
    }

    [Fact]
    public void EachCollection_IsOneReading_TakenOnce_OldestFirst_WithTheTargetsTime()
    {
        var figures = new RuntimeFigures();
        figures.EndCollection(At); // nothing published yet: no reading

        figures.MeterValue("dotnet.thread_pool.thread.count", "", 4);
        figures.EndCollection(At.AddSeconds(1));
        figures.MeterValue("dotnet.thread_pool.thread.count", "", 6);
        figures.EndCollection(At.AddSeconds(2));
        var taken = figures.TakeCollections();

        Assert.Equal([At.AddSeconds(1), At.AddSeconds(2)], taken.Select(c => c.AtUtc));
        Assert.Equal([4.0, 6.0], taken.Select(c => c.Values[MetricNames.RuntimeThreadPoolThreads]));
        Assert.Empty(figures.TakeCollections());
    }

    [Fact]
    public void ReadingsNotTaken_AreBounded_TheOldestDropped()
    {
        var figures = new RuntimeFigures();
        figures.MeterValue("dotnet.thread_pool.thread.count", "", 4);

        for (var second = 0; second < 100; second++)
        {
            figures.EndCollection(At.AddSeconds(second));
        }

        var taken = figures.TakeCollections();
        Assert.InRange(taken.Count, 1, 10);
        Assert.Equal(At.AddSeconds(99), taken[^1].AtUtc);
    }

    [Fact]
    public void Adjustments_AreCountedByReason()
    {
        var figures = new RuntimeFigures();

        figures.Adjustment(2, reason: 0);
        figures.Adjustment(3, reason: 3);
        figures.Adjustment(4, reason: 3);
        figures.Adjustment(4, reason: 42);
        var snapshot = figures.AdjustmentSnapshot();

        Assert.Equal(1, snapshot[Adjustments("warmup")]);
        Assert.Equal(2, snapshot[Adjustments("climbing_move")]);
        Assert.Equal(3, MetricNames.AdjustmentReasons.Sum(reason => snapshot[Adjustments(reason)]));
        Assert.Equal(0, snapshot[MetricNames.RuntimeThreadPoolStarvationThreadsTotal]);
    }

    [Fact]
    public void StarvationThreads_AreWhatStarvationAndCooperativeBlockingAdded_OverTheLastKnownGoal()
    {
        var figures = new RuntimeFigures();
        figures.MeterValue("dotnet.thread_pool.thread.count", "", 2);

        figures.Adjustment(3, reason: 6); // starvation: 2 (the meter's count, no goal known yet) → 3
        figures.Adjustment(6, reason: 8); // cooperative blocking: 3 → 6
        figures.Adjustment(5, reason: 7); // a thread timed out: a fall, not counted
        figures.Adjustment(9, reason: 3); // climbing: a rise, but not starvation
        figures.Adjustment(8, reason: 6); // starvation that lowers the goal adds nothing

        Assert.Equal(1 + 3, figures.AdjustmentSnapshot()[MetricNames.RuntimeThreadPoolStarvationThreadsTotal]);
        Assert.Equal(2, figures.AdjustmentSnapshot()[Adjustments("starvation")]);
    }

    [Fact]
    public void AFirstStarvationAdjustment_WithNothingKnownBefore_AddsNoGuessedThreads()
    {
        var figures = new RuntimeFigures();

        figures.Adjustment(10, reason: 6);
        figures.Adjustment(12, reason: 6);

        Assert.Equal(2, figures.AdjustmentSnapshot()[MetricNames.RuntimeThreadPoolStarvationThreadsTotal]);
    }
}
