namespace Harness.LoadTests.Engine;

/// <summary>Passed to each request of a scenario.</summary>
/// <param name="CopyNumber">Closed model: the virtual user (0-based). Open model: -1.</param>
/// <param name="InvocationNumber">Requests this scenario started before this one (open model: the arrival's place in the schedule).</param>
/// <param name="CancellationToken">Cancelled when the engine gives up on requests still in flight: after the drain
/// timeout (a request that ends by it is a failure of <see cref="LoadRunner.InFlightAtEndStatus"/>), or when the caller
/// cancels the run (a request that ends by it is not counted).</param>
public sealed record ScenarioContext(int CopyNumber, long InvocationNumber, CancellationToken CancellationToken)
{
    /// <summary>
    /// Where the series sends its requests when the run was given services (<c>--target</c>), so that one scenario can
    /// load each mode's service in turn; null without targets. The engine copies it from <see cref="Scenario.Target"/>.
    /// </summary>
    public Uri? Target { get; init; }
}
