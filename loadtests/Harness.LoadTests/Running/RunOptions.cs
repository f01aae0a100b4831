using Harness.LoadTests.Hosting;
using Harness.LoadTests.Profiles;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Scenarios;
using Harness.LoadTests.Targets;

namespace Harness.LoadTests.Running;

/// <summary>Everything <c>harness run</c> was asked to do, validated.</summary>
/// <param name="Modes">The modes in the order listed, duplicates kept (a mode listed twice runs twice); for external targets, their modes.</param>
/// <param name="Repeat">How many times the modes run, in a balanced order (<see cref="RepetitionOrder"/>), 1 to 20.</param>
/// <param name="Targets">External targets; empty means start the services locally.</param>
/// <param name="Thresholds">The <c>--assert</c> thresholds, checked once the run is over.</param>
internal sealed partial record RunOptions(
    LoadProfile Profile,
    double TimeScale,
    IReadOnlyList<string> Stacks,
    IReadOnlyList<string> Operations,
    IReadOnlyList<string> Modes,
    int Repeat,
    IReadOnlyList<ServiceTarget> Targets,
    OperationSettings Settings,
    long MaxFailures,
    IReadOnlyList<Threshold> Thresholds,
    string OutputDirectory,
    string CommandLine)
{
    /// <summary>
    /// <c>--repeat auto</c>: <see cref="Repeat"/> is the most rounds, and the run stops at the first look at which every
    /// comparison is settled (<see cref="SequentialRule"/>).
    /// </summary>
    public bool RepeatUntilSettled { get; init; }

    /// <summary>How each series is measured: its warm-up, the backoff after connection failures.</summary>
    public MeasurementSettings Measurement { get; init; } = MeasurementSettings.Default;

    /// <summary><c>--service-cpus</c>: the processors the local stub and services run on; null: wherever the runner may.</summary>
    public CpuAffinity? ServiceAffinity { get; init; }

    /// <summary>
    /// <c>--runtime-events</c>: attach to each target's .NET runtime over EventPipe where one is known (<c>pid=</c>,
    /// <c>diag=</c>, the services the runner starts) and record its ThreadPool figures; false: attach to none.
    /// </summary>
    public bool RuntimeEvents { get; init; } = true;

    /// <summary><c>--live</c>: serve a page charting the current series while the run lasts.</summary>
    public bool Live { get; init; }

    /// <summary><c>--metrics-port</c>: serve the run's figures as Prometheus text on this port while it runs (Telemetry/); null: not served.</summary>
    public int? MetricsPort { get; init; }

    /// <summary>The options as a <c>--config</c> file (Commands/RunConfigFile), written to the run folder; null: none written.</summary>
    public string? EffectiveConfig { get; init; }

    /// <summary>Every series' load: the warm-up, then the profile, as the engine's stages.</summary>
    /// <remarks>An agent of a distributed run loads its share of the profile (<see cref="ILoadShare"/>).</remarks>
    public SeriesLoad SeriesLoad() => Running.SeriesLoad.Create(
        Agent is { } agent ? agent.Share(Profile.ToSimulations()) : Profile.ToSimulations(),
        Measurement.WarmUp);
}
