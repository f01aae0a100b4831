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

    public bool IsOpenModel => Simulations.Any(s => s.IsOpenModel);
}
