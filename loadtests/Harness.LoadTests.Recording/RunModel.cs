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
/// <param name="RepeatUntilSettled">With <c>--repeat auto[:MAX]</c>, MAX: rounds were added until the comparisons settled or MAX ran; else 0.</param>
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
    IReadOnlyList<string> Agents,
    int RepeatUntilSettled = 0)
{
    /// <summary>The version this code writes. Version 3 split latency into successes and failures and added server time.</summary>
    public const int CurrentFormatVersion = 3;

    /// <summary>The oldest version readers still load: version 2, whose <see cref="SecondSample.Latency"/> holds every request.</summary>
    public const int OldestReadableFormatVersion = 2;

    /// <summary>True from version 3 on: <see cref="SecondSample.Latency"/> holds successful requests only.</summary>
    public bool SeparatesFailures => FormatVersion >= 3;

    public static bool IsReadable(int formatVersion) => formatVersion is >= OldestReadableFormatVersion and <= CurrentFormatVersion;
}

/// <summary>One scenario run against one target in one mode: one line on the charts.</summary>
/// <param name="Id">Unique in the run, safe as a file name: <c>{stack}-{operation}-{mode}</c>, e.g. <c>grpc-compute-iocp</c>, and <c>{stack}-{operation}-{mode}-{n}</c> for repetition n.</param>
/// <param name="Stack"><c>soap</c> or <c>grpc</c>.</param>
/// <param name="Operation"><c>compute</c> or <c>call-third-party</c>; for <c>run --call</c>, the method's or operation's name in kebab case (<c>say-hello</c>).</param>
/// <param name="Mode">Scheduling mode, or the <c>--mode-label</c> of an external target.</param>
/// <param name="Target">The address load went to.</param>
/// <param name="Model"><c>closed</c> (virtual users) or <c>open</c> (arrival rate).</param>
/// <param name="Parameters">The operation's arguments, e.g. iterations, fanout, delayMs, style, parallelism; for <c>run --call</c>, the call, its data template and where its description came from.</param>
/// <param name="OffsetSeconds">When the series started, in seconds after the run's start.</param>
/// <param name="IdealLatencyMs">The best latency possible where one exists (the stub's delay; one Compute call alone), else null.</param>
/// <param name="IdealThroughput">The best throughput possible where one exists (cores ÷ single-call time for Compute), else null.</param>
/// <param name="WarmUpSeconds">Seconds from the series' start that are warm-up: recorded and drawn (shaded), left out of every statistic.</param>
/// <param name="Repetition">1-based repetition number of this mode for this stack × operation; 0 when the mode is not repeated.</param>
/// <param name="IdealMethod">How the ideal was measured (e.g. "one call alone before the series"), shown where the report draws it.</param>
/// <param name="TotalRequests">Requests the series completed, set when it ended, so a reader can tell how many a damaged file lost; null until then.</param>
/// <param name="Round">1-based round of a repeated run (one pass over the modes; pairs of a round and its mirror); 0 when the modes ran once.</param>
/// <param name="Slot">Which listing of its mode this series ran as (1, 2…) when <c>--modes</c> names the mode more than once (an A/A run); else 0.</param>
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
    double? IdealThroughput,
    double WarmUpSeconds = 0,
    int Repetition = 0,
    string? IdealMethod = null,
    long? TotalRequests = null,
    int Round = 0,
    int Slot = 0);

/// <summary>Where a run happened.</summary>
public sealed record MachineInfo(int ProcessorCount, string OperatingSystem, string RuntimeVersion, string HarnessVersion);

/// <summary>One second of one series.</summary>
/// <param name="Second">Seconds since the series started.</param>
/// <param name="Users">Closed model: the virtual users the profile asks for (its target; users told to stop may still finish a call). Open model: the target arrival rate per second.</param>
/// <param name="Requests">Requests that completed in this second, failed ones included.</param>
/// <param name="Failures">Requests that failed in this second.</param>
/// <param name="StatusCounts">Failures by status: a gRPC status name, <c>http-413</c>, <c>soap-fault-Client</c>, <c>timeout</c>, <c>connection</c>...</param>
/// <param name="Latency">
/// Service time, from the moment each request was sent, of the requests completed in this second: the successful ones
/// from format 3 on, every one in format 2.
/// </param>
/// <param name="IntendedLatency">Open model only: latency from each request's intended start (coordinated omission corrected), of the same requests as <paramref name="Latency"/>; null in closed runs.</param>
/// <param name="Server">The target's /metrics scraped in this second: <c>name</c> or <c>name{labels}</c> → value; empty when the scrape failed.</param>
/// <param name="FailureLatency">Format 3: service time of the failed requests; null when none failed (and always in format 2).</param>
/// <param name="ServerTime">Format 3: the execution time the server reported for successful requests that carried one; else null.</param>
/// <param name="QueueTime">Format 3: for the same requests, latency minus server time (queueing and transport), clamped at 0; else null.</param>
/// <param name="SuccessCounts">Format 3: successful requests by the status they succeeded with (<c>OK</c> when the scenario gave none); sums to requests − failures. Null in files written before it was recorded.</param>
/// <param name="Stream">Format 3: the streaming calls among the successful requests, and their messages; null when none streamed.</param>
public sealed record SecondSample(
    int Second,
    int Users,
    long Requests,
    long Failures,
    IReadOnlyDictionary<string, long> StatusCounts,
    LatencyHistogram Latency,
    LatencyHistogram? IntendedLatency,
    IReadOnlyDictionary<string, double> Server,
    LatencyHistogram? FailureLatency = null,
    LatencyHistogram? ServerTime = null,
    LatencyHistogram? QueueTime = null,
    IReadOnlyDictionary<string, long>? SuccessCounts = null,
    StreamSample? Stream = null);

/// <summary>
/// The successful streaming calls that ended in one second, and their messages. A call's messages are counted in the
/// second it ended, as its latency is: a stream longer than a second is not spread over the seconds it ran.
/// </summary>
/// <param name="Calls">Streaming calls among the second's successful requests.</param>
/// <param name="MessagesSent">Request messages those calls wrote.</param>
/// <param name="MessagesReceived">Reply messages those calls read.</param>
/// <param name="FirstMessage">Time to the first reply message, one value per call that received one.</param>
/// <param name="MessageGap">Time between consecutive reply messages of one call (inter-message latency); empty when no call received two.</param>
public sealed record StreamSample(long Calls, long MessagesSent, long MessagesReceived, LatencyHistogram FirstMessage, LatencyHistogram MessageGap);

/// <summary>Something that happened during a run, marked on the report's timeline.</summary>
/// <param name="AtSeconds">Seconds after the run's start.</param>
/// <param name="Kind">e.g. <c>target-down</c>, <c>target-up</c>, <c>fault-start</c>, <c>fault-end</c>, <c>note</c>.</param>
/// <param name="SeriesId">The series it concerns, or null for the whole run.</param>
public sealed record RunEvent(double AtSeconds, string Kind, string? SeriesId, string Message);
