using Harness.LoadTests.Engine;

namespace Harness.LoadTests.Scenarios;

/// <summary>
/// A scenario whose request may throw: the exception becomes a failure counted by its status (<see cref="FailureStatus"/>,
/// noted the first time in <see cref="FirstFailures"/>), unless the engine itself cancelled the request, which is not counted.
/// </summary>
internal static class GuardedStep
{
    public static Scenario Create(string name, IReadOnlyList<LoadSimulation> load, FirstFailures? firstFailures, Func<ScenarioContext, Task<StepResult>> step) =>
        new(name, async context =>
        {
            try
            {
                return await step(context);
            }
            catch (Exception ex) when (!context.CancellationToken.IsCancellationRequested)
            {
                return FailureStatus.Fail(ex, firstFailures);
            }
        }, load);
}
