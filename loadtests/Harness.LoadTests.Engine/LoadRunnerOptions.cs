namespace Harness.LoadTests.Engine;

/// <summary>How <see cref="LoadRunner"/> runs a scenario: when it gives up, and how it backs off.</summary>
public sealed class LoadRunnerOptions
{
    /// <summary>
    /// The scenario stops early after this many failures. NBomber stops at 5,000 by default; the harness's default
    /// is far higher so that a run survives a failing target and still reports.
    /// </summary>
    public long MaxFailures { get; set; } = 1_000_000;

    /// <summary>After the last stage, how long requests still in flight may take before they are cancelled.</summary>
    public TimeSpan DrainTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// Closed model: how a copy waits after a connection failure (<see cref="StepResult.IsConnectionFailure"/>) before
    /// its next request, so that an outage is measured as time rather than as a flood of instant failures. Null turns
    /// it off: a copy retries at once. The open model never backs off; its arrivals are the schedule.
    /// </summary>
    public FailureBackoff? Backoff { get; set; } = new(TimeSpan.FromMilliseconds(100), TimeSpan.FromSeconds(2));

    /// <summary>Open model: most requests in flight; a request due beyond it waits, and its intended start time keeps the delay visible.</summary>
    public int MaxOpenRequestsInFlight { get; set; } = 20_000;
}
