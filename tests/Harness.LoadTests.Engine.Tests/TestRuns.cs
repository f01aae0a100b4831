namespace Harness.LoadTests.Engine.Tests;

/// <summary>Runs a fake scenario through the engine; every engine test class starts its runs here.</summary>
internal static class TestRuns
{
    public static readonly TimeSpan StepTime = TimeSpan.FromMilliseconds(50);

    static TestRuns()
    {
        // The test host keeps some pool threads blocked, and on 2 cores the pool starts with 2 threads and adds one
        // about every half second: the first runs then stall for ~700 ms waiting for a thread, which would test the
        // host rather than the engine. A load-generating process should raise the minimum too (docs/load-engine.md).
        ThreadPool.GetMinThreads(out var workers, out var completionPorts);
        ThreadPool.SetMinThreads(Math.Max(workers, 16), completionPorts);
    }

    public static TimeSpan S(double seconds) => TimeSpan.FromSeconds(seconds);

    /// <summary>
    /// The least a run made of waits adding up to <paramref name="seconds"/> can take on the Stopwatch: a timer
    /// (Task.Delay, a stage's end) may fire a few milliseconds early against it, since timers count whole
    /// milliseconds of a coarser clock (a 0.6 s run was once timed at 0.5978 s).
    /// </summary>
    public static TimeSpan AtLeast(double seconds) => S(seconds) - TimeSpan.FromMilliseconds(15);

    /// <summary>The fake request most tests send: it waits <paramref name="delay"/> (or until cancelled), then succeeds.</summary>
    public static Func<ScenarioContext, Task<StepResult>> DelayThenOk(TimeSpan delay) => DelayThenOk(_ => delay);

    /// <summary>The same, with a wait that depends on the call (its copy, its invocation).</summary>
    public static Func<ScenarioContext, Task<StepResult>> DelayThenOk(Func<ScenarioContext, TimeSpan> delay) =>
        async ctx =>
        {
            await Task.Delay(delay(ctx), ctx.CancellationToken);
            return StepResult.Ok();
        };

    public static Task<ScenarioResult> Run(
        Func<ScenarioContext, Task<StepResult>> step,
        RecordingObserver observer,
        LoadRunnerOptions? options = null,
        CancellationToken cancellationToken = default,
        params LoadSimulation[] stages) =>
        LoadRunner.RunAsync(new Scenario("fake", step, stages), observer, options ?? new LoadRunnerOptions(), cancellationToken);
}
