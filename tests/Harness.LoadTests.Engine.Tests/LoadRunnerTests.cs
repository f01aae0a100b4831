using System.Diagnostics;

namespace Harness.LoadTests.Engine.Tests;

public sealed class LoadRunnerTests
{
    private static readonly TimeSpan StepTime = TimeSpan.FromMilliseconds(50);

    static LoadRunnerTests()
    {
        // The test host keeps some pool threads blocked, and on 2 cores the pool starts with 2 threads and adds one
        // about every half second: the first runs then stall for ~700 ms waiting for a thread, which would test the
        // host rather than the engine. A load-generating process should raise the minimum too (docs/load-engine.md).
        ThreadPool.GetMinThreads(out var workers, out var completionPorts);
        ThreadPool.SetMinThreads(Math.Max(workers, 16), completionPorts);
    }

    private static TimeSpan S(double seconds) => TimeSpan.FromSeconds(seconds);

    private static Task<ScenarioResult> Run(
        Func<ScenarioContext, Task<StepResult>> step,
        RecordingObserver observer,
        LoadRunnerOptions? options = null,
        CancellationToken cancellationToken = default,
        params LoadSimulation[] stages) =>
        LoadRunner.RunAsync(new Scenario("fake", step, stages), observer, options ?? new LoadRunnerOptions(), cancellationToken);

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
        Assert.InRange(result.Elapsed, S(1), S(1.6));
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
    public async Task Inject_starts_requests_on_an_even_schedule()
    {
        var observer = new RecordingObserver();

        var result = await Run(
            async ctx =>
            {
                await Task.Delay(10, ctx.CancellationToken);
                return StepResult.Ok();
            },
            observer,
            stages: new LoadSimulation.Inject(20, S(1), S(2)));

        var samples = observer.Samples.OrderBy(s => s.IntendedStartAt).ToArray();
        Assert.Equal(40, result.Requests);
        Assert.Equal(40, samples.Length);
        for (var i = 0; i < samples.Length; i++)
        {
            Assert.Equal(TimeSpan.FromMilliseconds(50 * i), samples[i].IntendedStartAt);
            Assert.True(samples[i].StartedAt >= samples[i].IntendedStartAt);
        }

        var lateness = samples.Select(s => (s.StartedAt - s.IntendedStartAt).TotalMilliseconds).Order().ToArray();
        Assert.True(lateness[lateness.Length / 2] < 30, $"median lateness {lateness[lateness.Length / 2]} ms");
        var gaps = samples.Skip(1).Zip(samples, (b, a) => (b.StartedAt - a.StartedAt).TotalMilliseconds).Order().ToArray();
        Assert.InRange(gaps[gaps.Length / 2], 40, 60);
        Assert.Equal(0, result.MissedStarts);
        Assert.InRange(result.Elapsed, S(2), S(2.6));
    }

    [Fact]
    public async Task A_high_rate_schedule_catches_up_instead_of_sleeping_per_request()
    {
        var observer = new RecordingObserver();

        var result = await Run(_ => Task.FromResult(StepResult.Ok()), observer, stages: new LoadSimulation.Inject(5000, S(1), S(0.5)));

        var samples = observer.Samples;
        Assert.Equal(2500, result.Requests);
        Assert.Equal(2500, samples.Select(s => s.IntendedStartAt).Distinct().Count());
        Assert.InRange(result.Elapsed, S(0.5), S(1.2));
        var lateness = samples.Select(s => (s.StartedAt - s.IntendedStartAt).TotalMilliseconds).Order().ToArray();
        Assert.True(lateness[lateness.Length / 2] < 30, $"median lateness {lateness[lateness.Length / 2]} ms");
    }

    [Fact]
    public async Task Open_model_requests_overlap_when_the_step_is_slower_than_the_spacing()
    {
        var probe = new ConcurrencyProbe();
        var observer = new RecordingObserver();

        var result = await Run(ctx => probe.RunAsync(ctx, S(0.3)), observer, stages: new LoadSimulation.Inject(20, S(1), S(1)));

        Assert.Equal(20, result.Requests);
        Assert.InRange(probe.MaxRunning, 5, 8);
        var lateness = observer.Samples.Select(s => s.LatencyFromIntendedStart - s.Latency).Order().ToArray();
        Assert.True(lateness[lateness.Length / 2] < S(0.05), $"median lateness {lateness[lateness.Length / 2]}");
    }

    [Fact]
    public async Task Waiting_for_an_in_flight_slot_shows_in_latency_from_intended_start()
    {
        var probe = new ConcurrencyProbe();
        var observer = new RecordingObserver();
        var options = new LoadRunnerOptions { MaxOpenRequestsInFlight = 1 };

        var result = await Run(ctx => probe.RunAsync(ctx, S(0.3)), observer, options, stages: new LoadSimulation.Inject(10, S(1), S(1)));

        var samples = observer.Samples;
        Assert.Equal(1, probe.MaxRunning);
        Assert.InRange(samples.Count, 3, 4);
        Assert.Equal(10 - samples.Count, result.MissedStarts);
        var last = samples[^1];
        Assert.InRange(last.Latency, S(0.29), S(0.45));
        Assert.True(
            last.LatencyFromIntendedStart > last.Latency + S(0.35),
            $"latency {last.Latency}, from intended start {last.LatencyFromIntendedStart}");
        Assert.True(samples[^1].StartedAt - samples[^1].IntendedStartAt > samples[1].StartedAt - samples[1].IntendedStartAt);
    }

    [Fact]
    public async Task Failed_results_are_counted_under_their_status()
    {
        var observer = new RecordingObserver();

        var result = await Run(
            async ctx =>
            {
                await Task.Delay(20, ctx.CancellationToken);
                return ctx.InvocationNumber % 3 == 0 ? StepResult.Fail("503") : StepResult.Ok();
            },
            observer,
            stages: new LoadSimulation.KeepConstant(2, S(0.6)));

        var failed = observer.Samples.Where(s => !s.IsSuccess).ToArray();
        Assert.NotEmpty(failed);
        Assert.All(failed, s => Assert.Equal("503", s.StatusCode));
        Assert.Equal(failed.Length, result.Failures);
        Assert.Equal(observer.Samples.Count, result.Requests);
        Assert.InRange(result.Failures, (result.Requests / 3) - 2, (result.Requests / 3) + 2);
    }

    [Fact]
    public async Task Exceptions_are_failures_counted_under_their_type_name()
    {
        var observer = new RecordingObserver();

        var result = await Run(
            async ctx =>
            {
                await Task.Delay(20, ctx.CancellationToken);
                if (ctx.InvocationNumber % 2 == 1)
                {
                    throw new HttpRequestException("refused");
                }

                return StepResult.Ok();
            },
            observer,
            stages: new LoadSimulation.Inject(20, S(1), S(0.5)));

        Assert.Equal(10, result.Requests);
        Assert.Equal(5, result.Failures);
        Assert.All(observer.Samples.Where(s => !s.IsSuccess), s => Assert.Equal("HttpRequestException", s.StatusCode));
    }

    [Fact]
    public async Task A_step_that_throws_synchronously_or_times_out_on_its_own_is_a_failure()
    {
        var observer = new RecordingObserver();

        var result = await Run(
            ctx => ctx.InvocationNumber % 2 == 0
                ? throw new InvalidOperationException("sync")
                : Task.FromException<StepResult>(new TaskCanceledException("client timeout")),
            observer,
            stages: new LoadSimulation.Inject(10, S(1), S(0.4)));

        Assert.Equal(4, result.Failures);
        Assert.Equal(["InvalidOperationException", "TaskCanceledException"], observer.Samples.Select(s => s.StatusCode).Distinct().Order());
    }

    [Fact]
    public async Task Reaching_MaxFailures_stops_early()
    {
        var observer = new RecordingObserver();
        var options = new LoadRunnerOptions { MaxFailures = 5 };

        var result = await Run(
            async ctx =>
            {
                await Task.Delay(20, ctx.CancellationToken);
                return StepResult.Fail("500");
            },
            observer,
            options,
            stages: new LoadSimulation.KeepConstant(2, S(20)));

        Assert.True(result.StoppedByFailureLimit);
        Assert.InRange(result.Failures, 5, 6);
        Assert.True(result.Elapsed < S(2), $"took {result.Elapsed}");
        Assert.False(result.Cancelled);
    }

    [Fact]
    public async Task Requests_in_flight_at_the_end_finish_and_count()
    {
        var observer = new RecordingObserver();

        var result = await Run(
            async ctx =>
            {
                await Task.Delay(400, ctx.CancellationToken);
                return StepResult.Ok();
            },
            observer,
            stages: new LoadSimulation.KeepConstant(2, S(1)));

        Assert.Equal(6, result.Requests);
        Assert.Equal(0, result.Failures);
        Assert.InRange(result.Elapsed, S(1.15), S(1.6));
        Assert.All(observer.Samples, s => Assert.InRange(s.Latency, S(0.39), S(0.6)));
    }

    [Fact]
    public async Task Requests_outliving_the_drain_timeout_are_cancelled_and_not_counted()
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

        Assert.Equal(2, result.Requests);
        Assert.Equal(0, result.Failures);
        Assert.Equal(2, cancelledSteps);
        Assert.InRange(result.Elapsed, S(0.65), S(1.2));
        Assert.False(result.Cancelled);
    }

    [Fact]
    public async Task Cancelling_returns_promptly_without_throwing()
    {
        var observer = new RecordingObserver();
        using var cts = new CancellationTokenSource(S(0.3));
        var watch = Stopwatch.StartNew();

        var result = await Run(
            async ctx =>
            {
                await Task.Delay(S(30), ctx.CancellationToken);
                return StepResult.Ok();
            },
            observer,
            cancellationToken: cts.Token,
            stages: new LoadSimulation.KeepConstant(3, S(30)));

        Assert.True(result.Cancelled);
        Assert.True(watch.Elapsed < S(1.5), $"took {watch.Elapsed}");
        Assert.Equal(0, result.Requests);
        Assert.Equal(0, result.Failures);
        Assert.Empty(observer.Samples);
    }

    [Fact]
    public async Task Cancelling_an_open_model_run_returns_promptly()
    {
        var observer = new RecordingObserver();
        using var cts = new CancellationTokenSource(S(0.5));
        var watch = Stopwatch.StartNew();

        var result = await Run(
            async ctx =>
            {
                await Task.Delay(S(0.2), ctx.CancellationToken);
                return StepResult.Ok();
            },
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
            async ctx =>
            {
                await Task.Delay(StepTime, ctx.CancellationToken);
                return StepResult.Ok();
            },
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
    public async Task Open_model_progress_reports_the_arrival_rate()
    {
        var observer = new RecordingObserver();

        await Run(
            _ => Task.FromResult(StepResult.Ok()),
            observer,
            stages: new LoadSimulation.Inject(30, S(1), S(1.5)));

        Assert.Equal(30, observer.Progress[0].Users);
        Assert.InRange(observer.Progress[0].Requests, 29, 31);
    }

    [Fact]
    public async Task A_step_that_completes_synchronously_does_not_hold_up_the_engine()
    {
        var observer = new RecordingObserver(keepSamples: false);

        var result = await Run(_ => Task.FromResult(StepResult.Ok()), observer, stages: new LoadSimulation.KeepConstant(4, S(0.5)));

        Assert.True(result.Requests > 1000, $"{result.Requests} requests");
        Assert.InRange(result.Elapsed, S(0.5), S(1.2));
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
