namespace Harness.Metrics;

/// <summary>
/// What the load runner serves while it runs (<c>harness run --metrics-port</c>, and the same over OTLP): its requests,
/// their latency, its load and its phase, labelled by series; the runner's own process under the <c>harness_runner_</c>
/// names it also records (<see cref="RunnerCpuSecondsTotal"/>…); the agents' coordinator under <c>harness_coordinator_</c>.
/// </summary>
public static partial class MetricNames
{
    /// <summary>The prefix of the load's figures (harness run --metrics-port): none is a service's.</summary>
    public const string LoadPrefix = "harness_load_";

    /// <summary>The prefix of the coordinator's figures (harness coordinate --metrics-port).</summary>
    public const string CoordinatorPrefix = "harness_coordinator_";

    // Labels of the runner's figures. A series also carries ModeLabel and OperationLabel, spelt as the run names them
    // (compute, call-third-party, a --call's method), so `mode` joins them with the services' own metrics.
    public const string SeriesLabel = "series";
    public const string StackLabel = "stack";
    public const string StatusLabel = "status";
    public const string PhaseLabel = "phase";
    public const string QuantileLabel = "quantile";
    public const string BucketLabel = "le";
    public const string RunLabel = "run";
    public const string ProfileLabel = "profile";
    public const string ModelLabel = "model";
    public const string AgentLabel = "agent";
    public const string StateLabel = "state";

    /// <summary>Constant 1; the labels name the run: its id, profile, load model (open or closed) and, for an agent, which one.</summary>
    public const string LoadRunInfo = "harness_load_run_info";

    /// <summary>Completed requests by series and status (successes under <c>OK</c>, as the run's files count them).</summary>
    public const string LoadRequestsTotal = "harness_load_requests_total";

    /// <summary>Failed requests by series and status: the subset of <see cref="LoadRequestsTotal"/> that failed.</summary>
    public const string LoadFailuresTotal = "harness_load_failures_total";

    /// <summary>Histogram of the successes' latency, seconds, with fixed buckets; p99 by <c>histogram_quantile</c>.</summary>
    public const string LoadLatencySeconds = "harness_load_latency_seconds";

    /// <summary>Summary: p50 and p99 (<see cref="QuantileLabel"/>) of the last second's successes, from its HdrHistogram, as the progress line shows them.</summary>
    public const string LoadLastSecondLatencySeconds = "harness_load_last_second_latency_seconds";

    /// <summary>Closed model: virtual users running now.</summary>
    public const string LoadUsers = "harness_load_users";

    /// <summary>Open model: requests started per second now.</summary>
    public const string LoadArrivalRate = "harness_load_arrival_rate_per_second";

    public const string LoadRequestsInFlight = "harness_load_requests_in_flight";

    /// <summary>1 for the phase the run is in (<see cref="LoadPhases"/>), 0 for the others.</summary>
    public const string LoadPhase = "harness_load_phase";

    // The values of PhaseLabel: between series (services starting, the ideal being measured), the warm-up, the measured
    // load, and its end while the requests in flight drain.
    public const string PhaseIdle = "idle";
    public const string PhaseWarmUp = "warm_up";
    public const string PhaseMeasured = "measured";
    public const string PhaseDraining = "draining";

    /// <summary>Every value of <see cref="PhaseLabel"/>, in the order a series goes through them.</summary>
    public static readonly IReadOnlyList<string> LoadPhases = [PhaseIdle, PhaseWarmUp, PhaseMeasured, PhaseDraining];

    // The agents' coordinator (harness coordinate --metrics-port), labelled with RunLabel.

    /// <summary>Agents by <see cref="StateLabel"/>: registered, lost (silent past the limit), uploaded (their run arrived).</summary>
    public const string CoordinatorAgents = "harness_coordinator_agents";

    /// <summary>The agents the run waits for (<c>--agents</c>).</summary>
    public const string CoordinatorAgentsExpected = "harness_coordinator_agents_expected";

    /// <summary>1 once the run is aborted (an agent missing, lost or gone without a run), else 0.</summary>
    public const string CoordinatorAborted = "harness_coordinator_aborted";
}
