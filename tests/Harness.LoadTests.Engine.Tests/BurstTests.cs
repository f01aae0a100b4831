using static Harness.LoadTests.Engine.Tests.TestRuns;

namespace Harness.LoadTests.Engine.Tests;

/// <summary>IterationsForConstant: copies released at once, each running its iterations, the stage ending when they are done.</summary>
public sealed class BurstTests
{
    [Fact]
    public async Task Seed_000s_burst_releases_ten_calls_at_once_times_each_and_ends_when_they_are_done()
    {
        var probe = new ConcurrencyProbe();
        var observer = new RecordingObserver();

        var result = await Run(
            ctx => probe.RunAsync(ctx, S(0.3)),
            observer,
            stages: new LoadSimulation.IterationsForConstant(10, 1, TimeSpan.FromMinutes(5)));

        var samples = observer.Samples;
        Assert.Equal(10, result.Requests);
        Assert.Equal(10, probe.MaxRunning);
        Assert.Equal(Enumerable.Range(0, 10), probe.Copies.Order());
        Assert.True(samples[^1].StartedAt - samples[0].StartedAt < S(0.25), $"released over {samples[^1].StartedAt - samples[0].StartedAt}");
        Assert.All(samples, s => Assert.InRange(s.Latency, S(0.29), S(1)));
        Assert.Equal(0, result.Failures);
        Assert.InRange(result.Elapsed, AtLeast(0.3), S(3));
        Assert.Equal(0, observer.Progress[^1].Users);
        Assert.True(observer.Progress[^1].Duration < S(3), $"duration {observer.Progress[^1].Duration}");
    }

    [Fact]
    public async Task Each_copy_runs_its_iterations_one_after_another()
    {
        var probe = new ConcurrencyProbe();
        var observer = new RecordingObserver();

        var result = await Run(ctx => probe.RunAsync(ctx, StepTime), observer, stages: new LoadSimulation.IterationsForConstant(3, 4, S(30)));

        Assert.Equal(12, result.Requests);
        Assert.Equal(3, probe.MaxRunning);
        Assert.Equal(1, probe.MaxPerCopy);
        Assert.All(probe.Copies.GroupBy(c => c), g => Assert.Equal(4, g.Count()));
        Assert.Equal([0, 1, 2], probe.Copies.Distinct().Order());
        Assert.InRange(result.Elapsed, AtLeast(0.2), S(3));
    }

    [Fact]
    public async Task A_burst_is_cut_at_its_During()
    {
        var observer = new RecordingObserver();

        var result = await Run(
            DelayThenOk(StepTime),
            observer,
            stages: new LoadSimulation.IterationsForConstant(2, 1000, S(0.5)));

        Assert.InRange(result.Requests, 4, 22);
        Assert.Equal(0, result.Failures);
        Assert.InRange(result.Elapsed, AtLeast(0.5), S(1.5));
        Assert.InRange(observer.Progress[^1].Duration, S(0.49), S(0.5));
    }

    [Fact]
    public async Task The_stage_after_a_burst_starts_when_the_burst_ends()
    {
        var probe = new ConcurrencyProbe();
        var observer = new RecordingObserver();

        var result = await Run(
            ctx => probe.RunAsync(ctx, S(0.1)),
            observer,
            stages: [new LoadSimulation.IterationsForConstant(2, 1, S(20)), new LoadSimulation.KeepConstant(1, S(0.5))]);

        var samples = observer.Samples;
        var burstEnd = samples.Take(2).Max(s => s.CompletedAt);
        Assert.InRange(result.Requests, 4, 8);
        Assert.All(samples.Skip(2), s => Assert.True(s.StartedAt >= burstEnd, $"started at {s.StartedAt}, burst ended at {burstEnd}"));
        Assert.Equal(0, probe.Copies.Skip(2).Distinct().Single());
        Assert.InRange(result.Elapsed, AtLeast(0.6), S(3));
    }

    [Fact]
    public async Task A_burst_does_not_wait_for_the_copies_of_an_earlier_stage()
    {
        var probe = new ConcurrencyProbe();
        var observer = new RecordingObserver();

        var result = await Run(
            ctx => probe.RunAsync(ctx, S(1)),
            observer,
            stages: [new LoadSimulation.KeepConstant(3, S(0.3)), new LoadSimulation.IterationsForConstant(5, 1, S(20))]);

        // The earlier copies are a second into their only request when the burst starts; they start no more.
        var burst = observer.Samples.Where(s => s.StartedAt >= S(0.25)).ToArray();
        Assert.Equal(8, result.Requests);
        Assert.Equal(8, probe.MaxRunning);
        Assert.Equal(5, burst.Length);
        Assert.All(burst, s => Assert.True(s.StartedAt < S(0.8), $"burst request started at {s.StartedAt}"));
        Assert.InRange(result.Elapsed, AtLeast(1.3), S(3));
    }

    [Fact]
    public async Task Progress_counts_a_bursts_copies_until_each_is_done()
    {
        var observer = new RecordingObserver();

        var result = await Run(
            DelayThenOk(ctx => ctx.CopyNumber == 0 ? S(0.2) : S(1.5)),
            observer,
            stages: new LoadSimulation.IterationsForConstant(4, 1, TimeSpan.FromMinutes(1)));

        var first = observer.Progress[0];
        Assert.Equal(1, first.Second);
        Assert.Equal(3, first.Users);
        Assert.Equal(TimeSpan.FromMinutes(1), first.Duration);
        Assert.Equal(0, observer.Progress[^1].Users);
        Assert.InRange(observer.Progress[^1].Duration, S(1.45), S(3));
        Assert.Equal(4, result.Requests);
    }
}
