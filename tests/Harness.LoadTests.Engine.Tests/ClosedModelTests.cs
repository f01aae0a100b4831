using static Harness.LoadTests.Engine.Tests.TestRuns;

namespace Harness.LoadTests.Engine.Tests;

/// <summary>Copies: how many run, that each runs its requests one after another, and ramps.</summary>
public sealed class ClosedModelTests
{
    [Fact]
    public async Task Closed_model_keeps_the_target_number_of_copies_each_running_sequentially()
    {
        var probe = new ConcurrencyProbe();
        var observer = new RecordingObserver();

        var result = await Run(ctx => probe.RunAsync(ctx, StepTime), observer, stages: new LoadSimulation.KeepConstant(5, S(1)));

        Assert.Equal(5, probe.MaxRunning);
        Assert.Equal(1, probe.MaxPerCopy);
        Assert.InRange(result.Requests, 50, 105);
        Assert.Equal(result.Requests, observer.Samples.Count);
        Assert.All(observer.Samples, s => Assert.Equal(s.StartedAt, s.IntendedStartAt));
        Assert.Equal(0, result.Failures);
        Assert.False(result.Cancelled);
        Assert.False(result.StoppedByFailureLimit);
        Assert.InRange(result.Elapsed, AtLeast(1), S(1.6));
    }

    [Fact]
    public async Task Closed_model_copy_numbers_are_stable_and_invocations_count_up()
    {
        var copies = new System.Collections.Concurrent.ConcurrentBag<int>();
        var invocations = new System.Collections.Concurrent.ConcurrentBag<long>();
        var observer = new RecordingObserver();

        var result = await Run(
            async ctx =>
            {
                copies.Add(ctx.CopyNumber);
                invocations.Add(ctx.InvocationNumber);
                await Task.Delay(StepTime, ctx.CancellationToken);
                return StepResult.Ok();
            },
            observer,
            stages: new LoadSimulation.KeepConstant(3, S(0.5)));

        Assert.Equal([0, 1, 2], copies.Distinct().Order());
        Assert.Equal(Enumerable.Range(0, invocations.Count).Select(i => (long)i), invocations.Order());
        Assert.Equal(invocations.Count, result.Requests);
    }

    [Fact]
    public async Task RampingConstant_raises_concurrency_over_time()
    {
        var probe = new ConcurrencyProbe();
        var observer = new RecordingObserver();

        await Run(ctx => probe.RunAsync(ctx, StepTime), observer, stages: new LoadSimulation.RampingConstant(10, S(2)));

        var early = probe.Starts.Where(s => s.At < S(0.5)).Select(s => s.Running).DefaultIfEmpty(0).Max();
        var middle = probe.Starts.Where(s => s.At >= S(0.9) && s.At < S(1.1)).Select(s => s.Running).Max();
        var late = probe.Starts.Where(s => s.At >= S(1.6) && s.At < S(2)).Select(s => s.Running).Max();
        Assert.InRange(early, 0, 3);
        Assert.InRange(middle, 4, 6);
        Assert.InRange(late, 8, 10);
        Assert.InRange(probe.MaxRunning, 8, 10);
    }

    [Fact]
    public async Task Ramping_down_stops_copies_after_their_current_request()
    {
        var probe = new ConcurrencyProbe();
        var observer = new RecordingObserver();

        var result = await Run(
            ctx => probe.RunAsync(ctx, StepTime),
            observer,
            stages: [new LoadSimulation.KeepConstant(6, S(0.5)), new LoadSimulation.RampingConstant(0, S(1))]);

        var late = probe.Starts.Where(s => s.At >= S(1.25)).Select(s => s.Running).DefaultIfEmpty(0).Max();
        Assert.Equal(6, probe.MaxRunning);
        Assert.InRange(late, 0, 2);
        Assert.Equal(0, result.Failures);
        Assert.Equal(probe.Starts.Count, result.Requests);
        Assert.All(observer.Samples, s => Assert.True(s.Latency >= S(0.045), $"cut short at {s.Latency}"));
    }

    [Fact]
    public async Task A_step_that_completes_synchronously_does_not_hold_up_the_engine()
    {
        var observer = new RecordingObserver(keepSamples: false);

        var result = await Run(_ => Task.FromResult(StepResult.Ok()), observer, stages: new LoadSimulation.KeepConstant(4, S(0.5)));

        Assert.True(result.Requests > 1000, $"{result.Requests} requests");
        Assert.InRange(result.Elapsed, AtLeast(0.5), S(1.2));
    }

    [Fact]
    public async Task A_pause_runs_no_requests()
    {
        var probe = new ConcurrencyProbe();
        var observer = new RecordingObserver();

        await Run(
            ctx => probe.RunAsync(ctx, StepTime),
            observer,
            stages: [new LoadSimulation.Pause(S(0.5)), new LoadSimulation.KeepConstant(2, S(0.5))]);

        Assert.All(observer.Samples, s => Assert.True(s.StartedAt >= S(0.5), $"started at {s.StartedAt}"));
        Assert.NotEmpty(observer.Samples);
    }
}
