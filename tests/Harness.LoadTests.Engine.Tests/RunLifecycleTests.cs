using System.Diagnostics;
using static Harness.LoadTests.Engine.Tests.TestRuns;

namespace Harness.LoadTests.Engine.Tests;

/// <summary>What both models share: the drain, cancellation, progress, a failing observer and validation.</summary>
public sealed class RunLifecycleTests
{
    [Fact]
    public async Task Requests_in_flight_at_the_end_finish_and_count()
    {
        var observer = new RecordingObserver();

        var result = await Run(
            DelayThenOk(TimeSpan.FromMilliseconds(400)),
            observer,
            stages: new LoadSimulation.KeepConstant(2, S(1)));

        Assert.Equal(6, result.Requests);
        Assert.Equal(0, result.Failures);
        Assert.InRange(result.Elapsed, AtLeast(1.15), S(1.6));
        Assert.All(observer.Samples, s => Assert.InRange(s.Latency, S(0.39), S(0.6)));
    }

    [Fact]
    public async Task Requests_outliving_the_drain_timeout_are_cancelled_and_count_as_failures_in_flight_at_the_end()
    {
        var observer = new RecordingObserver();
        var options = new LoadRunnerOptions { DrainTimeout = S(0.2) };
        var cancelledSteps = 0;

        var result = await Run(
            async ctx =>
            {
                try
                {
                    await Task.Delay(ctx.InvocationNumber < 2 ? 100 : 30_000, ctx.CancellationToken);
                    return StepResult.Ok();
                }
                catch (OperationCanceledException)
                {
                    Interlocked.Increment(ref cancelledSteps);
                    throw;
                }
            },
            observer,
            options,
            stages: new LoadSimulation.KeepConstant(2, S(0.5)));

        Assert.Equal(4, result.Requests);
        Assert.Equal(2, result.Failures);
        Assert.Equal(2, cancelledSteps);
        Assert.Equal(2, result.InFlightAtEnd);
        Assert.Equal(0, result.Abandoned);
        Assert.InRange(result.Elapsed, AtLeast(0.65), S(1.2));
        Assert.False(result.Cancelled);

        // Each given up when the drain ran out (0.5 s of load, 0.2 s of drain), its time from its own start to then.
        var givenUp = observer.Samples.Where(s => !s.IsSuccess).ToList();
        Assert.Equal(2, givenUp.Count);
        Assert.All(givenUp, s => Assert.Equal(LoadRunner.InFlightAtEndStatus, s.StatusCode));
        Assert.All(givenUp, s => Assert.InRange(s.CompletedAt, AtLeast(0.7), S(1.2)));
        Assert.All(givenUp, s => Assert.InRange(s.Latency, AtLeast(0.5), S(1.2)));
    }

    [Fact]
    public async Task Cancelling_returns_promptly_without_throwing()
    {
        var observer = new RecordingObserver();
        using var cts = new CancellationTokenSource(S(0.3));
        var watch = Stopwatch.StartNew();

        var result = await Run(
            DelayThenOk(S(30)),
            observer,
            cancellationToken: cts.Token,
            stages: new LoadSimulation.KeepConstant(3, S(30)));

        Assert.True(result.Cancelled);
        Assert.True(watch.Elapsed < S(1.5), $"took {watch.Elapsed}");
        Assert.Equal(0, result.Requests);
        Assert.Equal(0, result.Failures);
        Assert.Equal(3, result.Abandoned);
        Assert.Empty(observer.Samples);
    }

    [Fact]
    public async Task Requests_ignoring_the_cancellation_after_the_drain_count_as_failures_in_flight_at_the_end()
    {
        var observer = new RecordingObserver();
        var options = new LoadRunnerOptions { DrainTimeout = S(0.2) };
        var never = new TaskCompletionSource<StepResult>(TaskCreationOptions.RunContinuationsAsynchronously);

        var result = await Run(
            ctx => ctx.InvocationNumber < 2 ? Task.FromResult(StepResult.Ok()) : never.Task,
            observer,
            options,
            stages: new LoadSimulation.KeepConstant(2, S(0.3)));

        // A step that returns after all is not reported twice.
        never.SetResult(StepResult.Ok());
        await Task.Delay(50);

        Assert.Equal(4, result.Requests);
        Assert.Equal(2, result.Failures);
        Assert.Equal(2, result.InFlightAtEnd);
        Assert.Equal(0, result.Abandoned);
        Assert.Equal(4, observer.Samples.Count);
        var givenUp = observer.Samples.Where(s => !s.IsSuccess).ToList();
        Assert.Equal(2, givenUp.Count);
        Assert.All(givenUp, s => Assert.Equal(LoadRunner.InFlightAtEndStatus, s.StatusCode));

        // Started at the latest when the load stopped (0.3 s), and given up after the drain (0.2 s) and the grace.
        Assert.All(givenUp, s => Assert.InRange(s.StartedAt, AtLeast(0.3), S(0.8)));
        Assert.All(givenUp, s => Assert.InRange(s.Latency, AtLeast(0.2), S(0.8)));
        Assert.Equal(0, observer.Progress[^1].RequestsInFlight);
        Assert.Equal(2, observer.Progress[^1].Failures);
    }

    [Fact]
    public async Task Cancelling_an_open_model_run_returns_promptly()
    {
        var observer = new RecordingObserver();
        using var cts = new CancellationTokenSource(S(0.5));
        var watch = Stopwatch.StartNew();

        var result = await Run(
            DelayThenOk(S(0.2)),
            observer,
            cancellationToken: cts.Token,
            stages: new LoadSimulation.Inject(50, S(1), S(30)));

        Assert.True(result.Cancelled);
        Assert.True(watch.Elapsed < S(1.5), $"took {watch.Elapsed}");
        Assert.InRange(result.Requests, 5, 20);
        Assert.Equal(0, result.Failures);
    }

    [Fact]
    public async Task Progress_is_reported_once_per_second_and_once_at_the_end()
    {
        var observer = new RecordingObserver();

        var result = await Run(
            DelayThenOk(StepTime),
            observer,
            stages: new LoadSimulation.KeepConstant(2, S(2.5)));

        var progress = observer.Progress;
        Assert.Equal([1, 2, 3], progress.Select(p => p.Second));
        Assert.All(progress.Take(2), p => Assert.InRange(p.Elapsed, S(p.Second), S(p.Second + 0.2)));
        Assert.Equal(2, progress[0].Users);
        Assert.Equal(0, progress[^1].Users);
        Assert.Equal(S(2.5), progress[0].Duration);
        Assert.True(progress[0].Requests > 0 && progress[0].Requests < progress[1].Requests);
        Assert.Equal(result.Requests, progress[^1].Requests);
        Assert.Equal(0, progress[^1].RequestsInFlight);
        Assert.Equal(result.Elapsed, progress[^1].Elapsed);
    }

    [Fact]
    public async Task An_observer_that_throws_stops_the_run_and_its_exception_surfaces()
    {
        var observer = new ThrowingObserver();

        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => LoadRunner.RunAsync(
            new Scenario("fake", _ => Task.FromResult(StepResult.Ok()), [new LoadSimulation.KeepConstant(2, S(10))]),
            observer,
            new LoadRunnerOptions(),
            CancellationToken.None));

        Assert.Equal("observer broke", error.Message);
    }

    private sealed class ThrowingObserver : ILoadObserver
    {
        public void OnRequest(in RequestSample sample) => throw new InvalidOperationException("observer broke");

        public void OnProgress(LoadProgress progress)
        {
        }
    }

    // The task is discarded: the point is that the call itself throws, before any run starts.
    private static ArgumentException RefusedAtOnce(Func<Task> start) => Assert.Throws<ArgumentException>(() => { _ = start(); });

    [Fact]
    public void Invalid_input_is_refused_before_the_run_starts()
    {
        var observer = new RecordingObserver();
        Task<StepResult> Step(ScenarioContext _) => Task.FromResult(StepResult.Ok());

        var mixed = RefusedAtOnce(() => Run(
            Step, observer, stages: [new LoadSimulation.RampingConstant(2, S(1)), new LoadSimulation.RampingInject(2, S(1), S(1))]));
        var empty = RefusedAtOnce(() => Run(Step, observer, stages: []));
        var interval = RefusedAtOnce(() => Run(Step, observer, stages: new LoadSimulation.Inject(2, TimeSpan.Zero, S(1))));
        var limit = RefusedAtOnce(() => Run(
            Step, observer, new LoadRunnerOptions { MaxOpenRequestsInFlight = 0 }, stages: new LoadSimulation.Inject(2, S(1), S(1))));

        Assert.Contains("stage 1, RampingConstant", mixed.Message, StringComparison.Ordinal);
        Assert.Contains("stage 2, RampingInject", mixed.Message, StringComparison.Ordinal);
        Assert.Contains("no load simulations", empty.Message, StringComparison.Ordinal);
        Assert.Contains("stage 1 (Inject): Interval must be greater than zero", interval.Message, StringComparison.Ordinal);
        Assert.Contains("MaxOpenRequestsInFlight must be at least 1", limit.Message, StringComparison.Ordinal);
        Assert.Empty(observer.Progress);
    }
}
