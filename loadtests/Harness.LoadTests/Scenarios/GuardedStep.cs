using Harness.LoadTests.Clients;
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
                return Fail(ex, firstFailures);
            }
        }, load);

    /// <summary>
    /// The step's result for a request that threw: counted under <see cref="FailureStatus.Of"/>, noted when it is the
    /// first of its status, and marked as a connection failure (<see cref="FailureStatus.IsConnectionFailure"/>) so that
    /// the engine backs off rather than retrying a dead target at once.
    /// </summary>
    private static StepResult Fail(Exception exception, FirstFailures? firstFailures)
    {
        var status = FailureStatus.Of(exception);
        firstFailures?.Note(status, exception);
        return StepResult.Fail(status, FailureStatus.IsConnectionFailure(exception));
    }

    /// <summary>
    /// A step of the user's own (<c>HarnessApp</c>) given <c>--timeout</c>: its <see cref="ScenarioContext.CancellationToken"/>
    /// is also cancelled when <paramref name="timeout"/> has passed, and a step that then fails, by that token or
    /// otherwise, throws <see cref="TimeoutException"/>, counted as <c>timeout</c>. The step's own clients are the
    /// user's, so the token is all the harness can hand them; a step that ignores it runs on.
    /// </summary>
    public static Func<ScenarioContext, Task<StepResult>> WithDeadline(Func<ScenarioContext, Task<StepResult>> step, TimeSpan timeout) =>
        async context =>
        {
            using var deadline = CancellationTokenSource.CreateLinkedTokenSource(context.CancellationToken);
            deadline.CancelAfter(timeout);
            try
            {
                return await step(context with { CancellationToken = deadline.Token });
            }
            catch (Exception ex) when (deadline.IsCancellationRequested && !context.CancellationToken.IsCancellationRequested)
            {
                throw new TimeoutException($"The step did not end within --timeout {timeout.TotalMilliseconds:0.###} ms.", ex);
            }
        };
}
