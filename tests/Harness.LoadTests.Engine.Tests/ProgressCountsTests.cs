using static Harness.LoadTests.Engine.Tests.TestRuns;

namespace Harness.LoadTests.Engine.Tests;

/// <summary>
/// What a progress report's users and requests in flight count, measured: the plan's target, the copies running,
/// and the requests started and not ended, which a closed model never has more of than copies running.
/// </summary>
public sealed class ProgressCountsTests
{
    [Fact]
    public async Task WhileTheDrainWaits_TheTargetIsZero_AndEveryRequestInFlightHasItsRunningCopy()
    {
        // Each call holds until the first report has been taken, so that report falls after load stopped (0.3 s)
        // with all four calls still in flight, whatever the machine's speed.
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var observer = new ReleasingObserver(release);

        var result = await LoadRunner.RunAsync(
            new Scenario(
                "fake",
                async ctx =>
                {
                    await release.Task.WaitAsync(ctx.CancellationToken);
                    return StepResult.Ok();
                },
                [new LoadSimulation.KeepConstant(4, S(0.3))]),
            observer,
            new LoadRunnerOptions(),
            CancellationToken.None);

        var draining = observer.Inner.Progress[0];
        var end = observer.Inner.Progress[^1];
        Assert.Equal(0, draining.Users);
        Assert.Equal(4, draining.RequestsInFlight);
        Assert.Equal(4, draining.RunningUsers);
        Assert.False(draining.IsOpenModel);
        Assert.Equal((4L, 0L), (result.Requests, result.Failures));
        Assert.Equal((0, 0L, 0), (end.Users, end.RequestsInFlight, end.RunningUsers));
    }

    [Fact]
    public async Task OnARamp_NoReportHasMoreRequestsInFlightThanCopiesRunning()
    {
        var observer = new RecordingObserver(keepSamples: false);

        await Run(DelayThenOk(S(0.3)), observer, stages: [new LoadSimulation.RampingConstant(8, S(1.5)), new LoadSimulation.RampingConstant(0, S(1))]);

        var progress = observer.Progress;
        Assert.True(progress.Count >= 3, $"{progress.Count} reports");
        Assert.All(progress, p => Assert.InRange(p.RequestsInFlight, 0, p.RunningUsers));
        Assert.Contains(progress, p => p.RunningUsers > 0);
    }

    [Fact]
    public async Task TheOpenModel_ReportsItsRate_AndNoRunningUsers()
    {
        var observer = new RecordingObserver(keepSamples: false);

        await Run(DelayThenOk(StepTime), observer, stages: new LoadSimulation.Inject(20, S(1), S(1.5)));

        var first = observer.Progress[0];
        Assert.True(first.IsOpenModel);
        Assert.Equal(20, first.Users);
        Assert.Equal(0, first.RunningUsers);
    }

    /// <summary>Records every report and lets the held calls end once the first has been taken.</summary>
    private sealed class ReleasingObserver(TaskCompletionSource release) : ILoadObserver
    {
        public RecordingObserver Inner { get; } = new(keepSamples: false);

        public void OnRequest(in RequestSample sample) => Inner.OnRequest(sample);

        public void OnProgress(LoadProgress progress)
        {
            Inner.OnProgress(progress);
            release.TrySetResult();
        }
    }
}
