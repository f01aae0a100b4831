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
    /// Requests still in flight when the run gave up on them (the drain ran out, or the caller cancelled): cancelled
    /// or left behind, they are in neither <see cref="Requests"/> nor <see cref="Failures"/>, so a report should say
    /// how many there were: a target too slow to answer within the run is otherwise indistinguishable from no load.
    /// </summary>
    public long Abandoned { get; init; }
}
