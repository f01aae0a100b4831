namespace Harness.LoadTests.Engine;

/// <summary>A named request and the load to drive it with, as an NBomber scenario built by <c>Scenario.Create</c>.</summary>
/// <param name="Run">Makes one request; an exception it throws counts as a failure under the exception's type name.</param>
/// <param name="Simulations">Stages, all closed-model or all open-model (mixing is refused), plus pauses.</param>
public sealed record Scenario(string Name, Func<ScenarioContext, Task<StepResult>> Run, IReadOnlyList<LoadSimulation> Simulations)
{
    /// <summary>
    /// The sum of the stages' <c>During</c>. With <see cref="LoadSimulation.IterationsForConstant"/> stages it is an upper
    /// bound: a burst ends when its copies are done, and the run's real length is known only when it ends.
    /// </summary>
    public TimeSpan Duration => Simulations.Aggregate(TimeSpan.Zero, (total, s) => total + s.During);

    /// <summary>True when the stages set arrival rates (open model), false when they set virtual users.</summary>
    public bool IsOpenModel => Simulations.Any(s => s.IsOpenModel);

    /// <summary>Handed to every request of the scenario as <see cref="ScenarioContext.Target"/>; the engine does nothing else with it.</summary>
    public Uri? Target { get; init; }

    /// <summary>
    /// A scenario of your own for <c>HarnessApp.RunAsync</c>: its name and its step, one request. The load comes from
    /// the command line (<c>--profile</c>, <c>--users</c>, <c>--rate</c>, <c>--warm-up</c>), so it has no stages here.
    /// </summary>
    /// <param name="name">Names the scenario's series in the report: letters, digits, '-' and '_', at most 40.</param>
    /// <param name="step">Makes one request. Return <see cref="StepResult.Ok"/> or <see cref="StepResult.Fail"/>; an
    /// exception it throws counts as a failure under the exception's type name.</param>
    public static Scenario Create(string name, Func<ScenarioContext, Task<StepResult>> step)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(step);
        return new Scenario(name, step, []);
    }
}
