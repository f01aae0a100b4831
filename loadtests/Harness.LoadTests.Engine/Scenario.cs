namespace Harness.LoadTests.Engine;

/// <summary>What one request of a scenario returned: success, or a failure with a status code to count it under.</summary>
public readonly record struct StepResult(bool IsSuccess, string? StatusCode)
{
    public static StepResult Ok() => new(true, null);

    public static StepResult Fail(string statusCode) => new(false, statusCode);
}

/// <summary>Passed to each request of a scenario.</summary>
/// <param name="CopyNumber">Closed model: the virtual user (0-based). Open model: -1.</param>
/// <param name="InvocationNumber">Requests this scenario started before this one (open model: the arrival's place in the schedule).</param>
/// <param name="CancellationToken">Cancelled when the engine gives up on requests still in flight: after the drain
/// timeout, or when the caller cancels the run. A request that ends by it is not counted.</param>
public sealed record ScenarioContext(int CopyNumber, long InvocationNumber, CancellationToken CancellationToken);

/// <summary>A named request and the load to drive it with, as an NBomber scenario built by <c>Scenario.Create</c>.</summary>
/// <param name="Run">Makes one request; an exception it throws counts as a failure under the exception's type name.</param>
/// <param name="Simulations">Stages, all closed-model or all open-model (mixing is refused), plus pauses.</param>
public sealed record Scenario(string Name, Func<ScenarioContext, Task<StepResult>> Run, IReadOnlyList<LoadSimulation> Simulations)
{
    public TimeSpan Duration => Simulations.Aggregate(TimeSpan.Zero, (total, s) => total + s.During);

    public bool IsOpenModel => Simulations.Any(s => s.IsOpenModel);
}

/// <summary>One request as measured by the engine; times are offsets from the scenario's start.</summary>
/// <param name="StartedAt">When the request was sent.</param>
/// <param name="IntendedStartAt">Open model: when the schedule meant it to start (for coordinated-omission correction). Closed model: equals <paramref name="StartedAt"/>.</param>
/// <param name="Latency">From <paramref name="StartedAt"/> to completion.</param>
public readonly record struct RequestSample(
    string Scenario,
    TimeSpan StartedAt,
    TimeSpan IntendedStartAt,
    TimeSpan Latency,
    bool IsSuccess,
    string? StatusCode)
{
    public TimeSpan CompletedAt => StartedAt + Latency;

    /// <summary>Latency measured from the intended start: what a user arriving on schedule waited.</summary>
    public TimeSpan LatencyFromIntendedStart => CompletedAt - IntendedStartAt;
}

/// <summary>Once per second of a scenario (and once at its end).</summary>
/// <param name="Second">1, 2, 3…: reported when that many whole seconds have elapsed, each value once. The report at the
/// end takes the next number, with <paramref name="Elapsed"/> showing how much of that second the run lasted.</param>
/// <param name="Users">Closed model: copies running now. Open model: the arrival rate per second now. 0 once load has
/// stopped (the end, the failure limit or cancellation) and requests are only draining.</param>
/// <param name="RequestsInFlight">Requests sent and not yet complete.</param>
public sealed record LoadProgress(
    string Scenario,
    int Second,
    TimeSpan Elapsed,
    TimeSpan Duration,
    int Users,
    long RequestsInFlight,
    long Requests,
    long Failures);

/// <summary>Receives what the engine measures. Called from many threads at once; keep it cheap.</summary>
public interface ILoadObserver
{
    void OnRequest(in RequestSample sample);

    void OnProgress(LoadProgress progress);
}

public sealed class LoadRunnerOptions
{
    /// <summary>
    /// The scenario stops early after this many failures. NBomber stops at 5,000 by default; the harness's default
    /// is far higher so that a run survives a failing target and still reports.
    /// </summary>
    public long MaxFailures { get; set; } = 1_000_000;

    /// <summary>After the last stage, how long requests still in flight may take before they are cancelled.</summary>
    public TimeSpan DrainTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>Open model: most requests in flight; a request due beyond it waits, and its intended start time keeps the delay visible.</summary>
    public int MaxOpenRequestsInFlight { get; set; } = 20_000;
}

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
