namespace Harness.LoadTests.Engine;

/// <summary>One request as measured by the engine; times are offsets from the scenario's start.</summary>
/// <param name="StartedAt">When the request was sent.</param>
/// <param name="IntendedStartAt">Open model: when the schedule meant it to start (for coordinated-omission correction). Closed model: equals <paramref name="StartedAt"/>.</param>
/// <param name="Latency">From <paramref name="StartedAt"/> to completion.</param>
/// <param name="ServerTime">The server's own execution time from the step's <see cref="StepResult.ServerTime"/>;
/// null when the request failed or the reply did not say.</param>
/// <param name="Stream">A successful streaming call's messages, from the step's <see cref="StepResult.Stream"/>; else null.</param>
public readonly record struct RequestSample(
    string Scenario,
    TimeSpan StartedAt,
    TimeSpan IntendedStartAt,
    TimeSpan Latency,
    bool IsSuccess,
    string? StatusCode,
    TimeSpan? ServerTime,
    StreamFigures? Stream = null)
{
    /// <summary>When the request ended, on the scenario's clock.</summary>
    public TimeSpan CompletedAt => StartedAt + Latency;

    /// <summary>Latency measured from the intended start: what a user arriving on schedule waited.</summary>
    public TimeSpan LatencyFromIntendedStart => CompletedAt - IntendedStartAt;
}
