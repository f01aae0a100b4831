namespace Harness.LoadTests.Engine;

/// <summary>Once per second of a scenario (and once at its end).</summary>
/// <param name="Second">1, 2, 3…: reported when that many whole seconds have elapsed, each value once. The report at the
/// end takes the next number, with <paramref name="Elapsed"/> showing how much of that second the run lasted.</param>
/// <param name="Duration">The scenario's length as known at this report: the sum of its stages' <c>During</c>, less the
/// time <see cref="LoadSimulation.IterationsForConstant"/> stages saved by ending before theirs.</param>
/// <param name="Users">The load the plan asks for now. Closed model: the copies it keeps running (its target; a burst's
/// copies until each has done its iterations), whether or not each has started yet; copies told to stop at a ramp-down
/// are no longer counted, though they may still finish a request (<see cref="RunningUsers"/> counts them). Open model:
/// the arrival rate per second now. 0 once load has stopped (the end, the failure limit or cancellation) and
/// requests are only draining.</param>
/// <param name="RequestsInFlight">Requests started and not yet complete, those the drain waits for included (0 once
/// the drain has given up on them). Closed model: at most <see cref="RunningUsers"/>, a copy having one at a time.</param>
public sealed record LoadProgress(
    string Scenario,
    int Second,
    TimeSpan Elapsed,
    TimeSpan Duration,
    int Users,
    long RequestsInFlight,
    long Requests,
    long Failures)
{
    /// <summary>
    /// Closed model: the copies whose loop is running now, each with at most one request in flight: the target's, and
    /// copies stopped by a ramp-down or by the end of load that are still finishing their request (or their backoff).
    /// Open model: 0 (there are no users, only arrivals).
    /// </summary>
    public int RunningUsers { get; init; }

    /// <summary>True when <see cref="Users"/> is an arrival rate (open model), not copies.</summary>
    public bool IsOpenModel { get; init; }
}
