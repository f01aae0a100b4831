namespace Harness.LoadTests.Recording;

// The data of one load run, as saved in its raw files and read back by `report`, `compare` and merging.
// docs/raw-format.md describes the files. Reports are rendered from these types only.

/// <summary>A whole run: its settings, each series' timeline, and the events that happened during it.</summary>
public sealed record RunData(
    RunManifest Manifest,
    IReadOnlyDictionary<string, IReadOnlyList<SecondSample>> Timelines,
    IReadOnlyList<RunEvent> Events);

/// <summary>The settings of a run, saved as <c>run.json</c>: what a reader needs to rerun it.</summary>
/// <param name="FormatVersion">Version of the raw format; readers refuse versions they do not know.</param>
/// <param name="RunId">The run folder's name, e.g. <c>20261122-011900</c>.</param>
/// <param name="StartedAt">Wall-clock start; second 0 of every timeline.</param>
/// <param name="Profile">Name of the load profile, e.g. <c>ramp</c>.</param>
/// <param name="ProfileDefinition">The effective profile after command-line overrides and time scaling, as JSON.</param>
/// <param name="TimeScale">Factor applied to every duration of the profile (1 = as published).</param>
/// <param name="Modes">Scheduling modes compared, in run order.</param>
/// <param name="Series">Every series recorded.</param>
/// <param name="Machine">Where the run happened.</param>
/// <param name="CommandLine">The command that started the run.</param>
/// <param name="Agents">Agents whose data is in this run; more than one after a merge.</param>
public sealed record RunManifest(
    int FormatVersion,
    string RunId,
    DateTimeOffset StartedAt,
    string Profile,
    string ProfileDefinition,
    double TimeScale,
    IReadOnlyList<string> Modes,
    IReadOnlyList<SeriesInfo> Series,
    MachineInfo Machine,
    string CommandLine,
    IReadOnlyList<string> Agents)
{
    public const int CurrentFormatVersion = 2;
}

/// <summary>One scenario run against one target in one mode: one line on the charts.</summary>
/// <param name="Id">Unique in the run, safe as a file name: <c>{stack}-{operation}-{mode}</c>, e.g. <c>grpc-compute-iocp</c>.</param>
/// <param name="Stack"><c>soap</c> or <c>grpc</c>.</param>
/// <param name="Operation"><c>compute</c> or <c>call-third-party</c>.</param>
/// <param name="Mode">Scheduling mode, or the <c>--mode-label</c> of an external target.</param>
/// <param name="Target">The address load went to.</param>
/// <param name="Model"><c>closed</c> (virtual users) or <c>open</c> (arrival rate).</param>
/// <param name="Parameters">The operation's arguments, e.g. iterations, fanout, delayMs, style, parallelism.</param>
/// <param name="OffsetSeconds">When the series started, in seconds after the run's start.</param>
/// <param name="IdealLatencyMs">The best latency possible where one exists (the stub's delay; one Compute call alone), else null.</param>
/// <param name="IdealThroughput">The best throughput possible where one exists (cores ÷ single-call time for Compute), else null.</param>
public sealed record SeriesInfo(
    string Id,
    string Stack,
    string Operation,
    string Mode,
    string Target,
    string Model,
    IReadOnlyDictionary<string, string> Parameters,
    double OffsetSeconds,
    double? IdealLatencyMs,
    double? IdealThroughput);

/// <summary>Where a run happened.</summary>
public sealed record MachineInfo(int ProcessorCount, string OperatingSystem, string RuntimeVersion, string HarnessVersion);

/// <summary>One second of one series.</summary>
/// <param name="Second">Seconds since the series started.</param>
/// <param name="Users">Closed model: virtual users running. Open model: the target arrival rate per second.</param>
/// <param name="Requests">Requests that completed in this second, failed ones included.</param>
/// <param name="Failures">Requests that failed in this second.</param>
/// <param name="StatusCounts">Failures by status: a gRPC status name, <c>http-413</c>, <c>soap-fault-Client</c>, <c>timeout</c>, <c>connection</c>...</param>
/// <param name="Latency">Service time of the requests completed in this second, from the moment each was sent.</param>
/// <param name="IntendedLatency">Open model only: latency from each request's intended start (coordinated omission corrected); null in closed runs.</param>
/// <param name="Server">The target's /metrics scraped in this second: <c>name</c> or <c>name{labels}</c> → value; empty when the scrape failed.</param>
public sealed record SecondSample(
    int Second,
    int Users,
    long Requests,
    long Failures,
    IReadOnlyDictionary<string, long> StatusCounts,
    LatencyHistogram Latency,
    LatencyHistogram? IntendedLatency,
    IReadOnlyDictionary<string, double> Server);

/// <summary>Something that happened during a run, marked on the report's timeline.</summary>
/// <param name="AtSeconds">Seconds after the run's start.</param>
/// <param name="Kind">e.g. <c>target-down</c>, <c>target-up</c>, <c>fault</c>, <c>note</c>.</param>
/// <param name="SeriesId">The series it concerns, or null for the whole run.</param>
public sealed record RunEvent(double AtSeconds, string Kind, string? SeriesId, string Message);
