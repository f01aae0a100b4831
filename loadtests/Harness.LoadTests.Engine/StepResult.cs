namespace Harness.LoadTests.Engine;

/// <summary>What one request of a scenario returned: success, or a failure with a status code to count it under.</summary>
public readonly record struct StepResult(bool IsSuccess, string? StatusCode)
{
    /// <summary>
    /// The server's own execution time, as its reply reports it; the engine copies it into the request's
    /// <see cref="RequestSample.ServerTime"/> when the request succeeded. Null when the reply does not say.
    /// </summary>
    public TimeSpan? ServerTime { get; init; }

    /// <summary>
    /// The request failed because no connection could be made (refused, reset, unreachable), as opposed to a
    /// reply that reported an error. Only a failed result can be a connection failure; the closed model backs off
    /// after one (<see cref="LoadRunnerOptions.Backoff"/>). An exception the step throws never counts as one: the
    /// engine knows nothing of transports, so a step that wants backoff returns <see cref="Fail"/> with it set.
    /// </summary>
    public bool IsConnectionFailure { get; init; }

    /// <summary>
    /// A streaming call's messages (<see cref="StreamClock"/>); the engine copies them into the request's
    /// <see cref="RequestSample.Stream"/> when the request succeeded. Null for a unary call.
    /// </summary>
    public StreamFigures? Stream { get; init; }

    /// <summary>The request succeeded; <paramref name="serverTime"/> is the server's own time for it when its reply says.</summary>
    public static StepResult Ok(TimeSpan? serverTime = null) => new(true, null) { ServerTime = serverTime };

    /// <summary>The request failed; it is counted under <paramref name="statusCode"/> (e.g. a gRPC status such as UNAVAILABLE).</summary>
    public static StepResult Fail(string statusCode, bool isConnectionFailure = false) =>
        new(false, statusCode) { IsConnectionFailure = isConnectionFailure };
}
