using static Harness.LoadTests.Engine.Tests.TestRuns;

namespace Harness.LoadTests.Engine.Tests;

/// <summary>Failed results and exceptions, and the failure limit.</summary>
public sealed class FailureTests
{
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
    public async Task Server_time_is_copied_from_successful_results_only()
    {
        var observer = new RecordingObserver();
        var serverTime = TimeSpan.FromMilliseconds(7);

        var result = await Run(
            async ctx =>
            {
                await Task.Delay(10, ctx.CancellationToken);
                return ctx.InvocationNumber % 2 == 0
                    ? StepResult.Ok(serverTime)
                    : StepResult.Fail("500") with { ServerTime = serverTime };
            },
            observer,
            stages: new LoadSimulation.Inject(20, S(1), S(0.5)));

        Assert.Equal(10, result.Requests);
        Assert.All(observer.Samples, s => Assert.Equal(s.IsSuccess ? serverTime : null, s.ServerTime));
        Assert.Contains(observer.Samples, s => s.ServerTime is not null);
        Assert.Contains(observer.Samples, s => !s.IsSuccess);
    }

    [Fact]
    public void Result_factories_set_server_time_and_connection_failure()
    {
        var ok = StepResult.Ok(TimeSpan.FromMilliseconds(3));
        var refused = StepResult.Fail("connection", isConnectionFailure: true);
        var error = StepResult.Fail("500");

        Assert.Equal((true, null, TimeSpan.FromMilliseconds(3), false), (ok.IsSuccess, ok.StatusCode, ok.ServerTime, ok.IsConnectionFailure));
        Assert.Equal((false, "connection", null, true), (refused.IsSuccess, refused.StatusCode, refused.ServerTime, refused.IsConnectionFailure));
        Assert.False(error.IsConnectionFailure);
        Assert.Null(StepResult.Ok().ServerTime);
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
}
