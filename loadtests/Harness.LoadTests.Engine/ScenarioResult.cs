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
}
