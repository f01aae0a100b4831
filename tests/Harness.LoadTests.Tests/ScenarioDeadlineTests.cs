using Harness.LoadTests.Engine;
using Harness.LoadTests.Scenarios;

namespace Harness.LoadTests.Tests;

/// <summary>A scenario of the user's own under <c>--timeout</c>: its token is cancelled at the timeout, and the step's failure then counts as <c>timeout</c>.</summary>
public sealed class ScenarioDeadlineTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromMilliseconds(200);

    [Fact]
    public async Task AStepThatWaitsOnItsToken_FailsAsTimeout_KeepingItsTarget()
    {
        Uri? seen = null;
        var step = GuardedStep.WithDeadline(async ctx =>
        {
            seen = ctx.Target;
            await Task.Delay(System.Threading.Timeout.InfiniteTimeSpan, ctx.CancellationToken);
            return StepResult.Ok();
        }, Timeout);
        var scenario = GuardedStep.Create("s", [new LoadSimulation.KeepConstant(1, TimeSpan.FromSeconds(1))], null, step);

        var result = await scenario.Run(new ScenarioContext(0, 0, CancellationToken.None) { Target = new Uri("http://127.0.0.1:1") })
            .WaitAsync(TimeSpan.FromSeconds(15));

        Assert.False(result.IsSuccess);
        Assert.Equal("timeout", result.StatusCode);
        Assert.Equal(new Uri("http://127.0.0.1:1"), seen);
    }

    [Fact]
    public async Task AStepWithinItsTimeout_IsUntouched()
    {
        var step = GuardedStep.WithDeadline(_ => Task.FromResult(StepResult.Fail("CODE")), Timeout);

        var result = await step(new ScenarioContext(0, 0, CancellationToken.None));

        Assert.Equal("CODE", result.StatusCode);
    }

    [Fact]
    public async Task TheEnginesOwnCancellation_IsNotATimeout()
    {
        using var engine = new CancellationTokenSource();
        var step = GuardedStep.WithDeadline(async ctx =>
        {
            await Task.Delay(System.Threading.Timeout.InfiniteTimeSpan, ctx.CancellationToken);
            return StepResult.Ok();
        }, TimeSpan.FromMinutes(1));

        var running = step(new ScenarioContext(0, 0, engine.Token));
        await engine.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => running.WaitAsync(TimeSpan.FromSeconds(15)));
    }
}
