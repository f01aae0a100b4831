namespace Harness.LoadTests.Engine;

/// <summary>How a scenario's run ended.</summary>
public sealed record ScenarioResult(
    string Scenario,
    TimeSpan Elapsed,
    long Requests,
    long Failures,
    bool StoppedByFailureLimit,
    bool Cancelled)
{
    /// <summary>
    /// Open model: arrivals that fell due before load stopped but never started, because
    /// <see cref="LoadRunnerOptions.MaxOpenRequestsInFlight"/> was reached. They have no sample, so a report should
    /// show this count next to the latencies.
    /// </summary>
    public long MissedStarts { get; init; }

    /// <summary>
    /// Requests still in flight when the drain ran out (<see cref="LoadRunnerOptions.DrainTimeout"/>): each is a failure
    /// of status <see cref="LoadRunner.InFlightAtEndStatus"/>, counted in <see cref="Requests"/> and
    /// <see cref="Failures"/>, so that a target that never answers shows as failing, not as idle.
    /// </summary>
    public long InFlightAtEnd { get; init; }

    /// <summary>
    /// Requests in flight when the caller cancelled the run: cancelled or left behind, they are in neither
    /// <see cref="Requests"/> nor <see cref="Failures"/> (the run was stopped, not the target found wanting).
    /// </summary>
    public long Abandoned { get; init; }
}
