using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>
/// The figures of one series over its whole timeline. Latency comes from the merge of every second's histogram,
/// so percentiles are those of all successful requests, never an average of per-second percentiles; failed
/// requests have their own count, rate and latency. Seconds of the warm-up (second &lt; <see cref="SeriesInfo.WarmUpSeconds"/>)
/// are left out of every figure.
/// </summary>
internal sealed record SeriesSummary
{
    private Lazy<SoakTrend> _soak = new(() => SoakTrend.Empty);
    private Lazy<KneeResult> _knee = new(() => KneeResult.None);

    public required SeriesInfo Series { get; init; }

    /// <summary>
    /// The series' first and last windows after the warm-up and its trends (see <see cref="SoakTrend"/>), with the
    /// default window of 10 %; computed on first use.
    /// </summary>
    public SoakTrend Soak => _soak.Value;

    /// <summary>Computes <see cref="Soak"/> on first use (it merges the windows' histograms, which most reports never need).</summary>
    internal Func<SoakTrend> SoakSource { init => _soak = new Lazy<SoakTrend>(value); }

    /// <summary>Where the series leaves its ideal as its load rises (see <see cref="KneeResult"/>), with the default margin and sustain; computed on first use.</summary>
    public KneeResult Knee => _knee.Value;

    internal Func<KneeResult> KneeSource { init => _knee = new Lazy<KneeResult>(value); }

    /// <summary>
    /// Service time of the successful requests, from each one's send to its completion: what every ratio, threshold
    /// and comparison uses. In a format 2 run it holds every request (<see cref="LatencyIncludesFailures"/>).
    /// </summary>
    public required LatencyStats Latency { get; init; }

    /// <summary>True for a format 2 run, whose files do not keep the latency of failures apart.</summary>
    public required bool LatencyIncludesFailures { get; init; }

    /// <summary>Service time of the failed requests (empty when none failed); null in a format 2 run.</summary>
    public required LatencyStats? FailureLatency { get; init; }

    /// <summary>The execution time the server reported for successful requests; null when no reply carried one.</summary>
    public required LatencyStats? ServerTime { get; init; }

    /// <summary>For the same requests: latency − server time, the time spent queueing and in transport; null with <see cref="ServerTime"/>.</summary>
    public required LatencyStats? QueueTime { get; init; }

    /// <summary>Open model only: latency from each request's intended start (coordinated omission corrected).</summary>
    public required LatencyStats? IntendedLatency { get; init; }

    public required long Requests { get; init; }

    public required long Failures { get; init; }

    /// <summary>Requests that succeeded: <see cref="Requests"/> − <see cref="Failures"/>.</summary>
    public long Successes => Requests - Failures;

    /// <summary>Failures ÷ requests, 0 to 1 (0 when nothing completed).</summary>
    public required double ErrorRate { get; init; }

    /// <summary>Failures by status, most frequent first.</summary>
    public required IReadOnlyList<KeyValuePair<string, long>> FailuresByStatus { get; init; }

    /// <summary>
    /// Successes by the status they succeeded with (<c>OK</c> when the scenario gave none), most frequent first; empty
    /// when the raw files do not count them (files written before they were, or a format 2 run).
    /// </summary>
    public IReadOnlyList<KeyValuePair<string, long>> SuccessesByStatus { get; init; } = [];

    /// <summary>Seconds recorded in the timeline after the warm-up: the seconds every figure comes from.</summary>
    public required int Seconds { get; init; }

    /// <summary>Recorded seconds of the warm-up, left out of every figure (they stay in the files, the CSV and the charts).</summary>
    public required int WarmUpSecondsLeftOut { get; init; }

    /// <summary>Seconds in which the series had users (or an arrival rate) or completed requests.</summary>
    public required int ActiveSeconds { get; init; }

    /// <summary>Requests ÷ active seconds.</summary>
    public required double RequestsPerSecond { get; init; }

    /// <summary>Most users (closed model) or highest arrival rate (open model) of any second.</summary>
    public required int PeakUsers { get; init; }

    /// <summary>Seconds in which the target's /metrics answered.</summary>
    public required int ServerSamples { get; init; }

    /// <summary>
    /// Of the <see cref="ActiveSeconds"/>, those in which the target's /metrics answered: what the coverage note
    /// compares, so that the idle second a series ends with (its load stopped, the scraper with it) is no gap.
    /// </summary>
    public required int ActiveServerSamples { get; init; }

    /// <summary>Most OS threads of the target process in any second (see <see cref="ServerMetrics.Threads"/>).</summary>
    public required double? PeakThreads { get; init; }

    /// <summary>Most threads of the mode's scheduler running a work item at once.</summary>
    public required double? PeakBusyThreads { get; init; }

    /// <summary>Longest queue of work items waiting to start (see <see cref="ServerMetrics.QueueLength"/>).</summary>
    public required double? PeakQueueLength { get; init; }

    /// <summary>Growth of the target's voluntary + involuntary context switches over the series ÷ requests.</summary>
    public required double? ContextSwitchesPerRequest { get; init; }

    /// <summary>CPU time the target used over the series ÷ the time between its first and last scrape, in % of one core.</summary>
    public required double? MeanCpuPercent { get; init; }

    public required double? PeakWorkingSetMb { get; init; }

    /// <summary>
    /// CPU time the target used per request, in ms: the growth of its <c>process_cpu_seconds_total</c> over the series
    /// (from the warm-up's last scrape) ÷ requests completed. Null without two scrapes or without requests.
    /// </summary>
    public double? CpuMsPerRequest { get; init; }

    /// <summary>
    /// The target's memory per call in flight, in KB (1,024 bytes): <see cref="PeakWorkingSetMb"/> ÷ <see cref="PeakUsers"/>,
    /// closed model only (each user holds one call in flight, so the peak users are the most calls in flight); null in
    /// the open model (its users are an arrival rate), without server samples, or without users.
    /// </summary>
    public double? MemoryKbPerCallInFlight =>
        !IsOpenModel && PeakWorkingSetMb is { } mb && PeakUsers > 0 ? mb * 1024 / PeakUsers : null;

    /// <summary>The processors and CPU limit the target had (see <see cref="TargetCpu"/>).</summary>
    public TargetCpu Cpu { get; init; } = TargetCpu.Unknown;

    /// <summary>The load runner's own CPU, memory and threads over the measured seconds; null when the run did not sample them.</summary>
    public RunnerLoad? Runner { get; init; }

    /// <summary>The target's ThreadPool as its .NET runtime reported it, and the starvation verdict; null when the series has no runtime figures.</summary>
    public RuntimeThreadPool? Runtime { get; init; }

    /// <summary>A streaming series' messages (time to first message, messages a second, inter-message latency); null when no call streamed.</summary>
    public StreamMessages? Stream { get; init; }

    /// <summary>One per outage or fault window of the series (see <see cref="Recovery"/>).</summary>
    public required IReadOnlyList<Recovery> Recoveries { get; init; }

    public bool IsOpenModel => string.Equals(Series.Model, "open", StringComparison.OrdinalIgnoreCase);

    /// <summary>Every second's service-time histogram merged; treat as read-only.</summary>
    public required LatencyHistogram Histogram { get; init; }

    /// <summary>Every second's intended-start histogram merged (open model), else null; treat as read-only.</summary>
    public required LatencyHistogram? IntendedHistogram { get; init; }

    /// <summary>Any percentile of the service time, in ms.</summary>
    public double LatencyPercentileMs(double percentile) => Histogram.ValueAtPercentile(percentile) / 1000.0;

    /// <summary>Any percentile of the intended-start latency, in ms; null in closed-model series.</summary>
    public double? IntendedPercentileMs(double percentile) => IntendedHistogram?.ValueAtPercentile(percentile) / 1000.0;

    /// <param name="series">The series.</param>
    /// <param name="timeline">Its timeline.</param>
    /// <param name="events">The run's events (run time), for the outage and fault windows; none when null.</param>
    /// <param name="latencyIncludesFailures">True for a format 2 run (<see cref="RunManifest.SeparatesFailures"/> false).</param>
    /// <param name="cores">The runner machine's cores, for <see cref="RunnerLoad.Saturated"/>; 0 when unknown.</param>
    public static SeriesSummary From(
        SeriesInfo series, IReadOnlyList<SecondSample> timeline, IReadOnlyList<RunEvent>? events = null, bool latencyIncludesFailures = false, int cores = 0)
    {
        ArgumentNullException.ThrowIfNull(series);
        ArgumentNullException.ThrowIfNull(timeline);
        var ordered = timeline.OrderBy(s => s.Second).ToList();
        var samples = ordered.Where(s => !IsWarmUp(series, s.Second)).ToList();
        var rows = SecondRow.From(samples);
        var histogram = LatencyHistogram.Merge(samples.Select(s => s.Latency));
        var failed = LatencyHistogram.Merge(samples.Where(s => s.FailureLatency is not null).Select(s => s.FailureLatency!));
        var serverTime = LatencyHistogram.Merge(samples.Where(s => s.ServerTime is not null).Select(s => s.ServerTime!));
        var queueTime = LatencyHistogram.Merge(samples.Where(s => s.QueueTime is not null).Select(s => s.QueueTime!));
        var intended = samples.Any(s => s.IntendedLatency is not null)
            ? LatencyHistogram.Merge(samples.Where(s => s.IntendedLatency is not null).Select(s => s.IntendedLatency!))
            : null;
        long requests = samples.Sum(s => s.Requests), failures = samples.Sum(s => s.Failures);
        var byStatus = SumByStatus(samples.Select(s => s.StatusCounts));
        // Only when every second counted its successes, or the counts would fall short of the successes.
        var successes = samples.Count > 0 && samples.All(s => s.SuccessCounts is not null) ? SumByStatus(samples.Select(s => s.SuccessCounts!)) : [];

        var active = samples.Count(s => s.Users > 0 || s.Requests > 0);
        var server = rows.Where(r => r.HasServer).ToList();
        var switches = SecondRow.CounterIncrease(Counter(series, ordered, s => ServerMetrics.ContextSwitches(s.Server)).Select(s => (double?)s.Value));
        var cpuSamples = Counter(series, ordered, s => ServerMetrics.Value(s.Server, ServerMetrics.CpuSecondsTotal));
        var cpuSpan = cpuSamples.Count < 2 ? 0 : cpuSamples[^1].Second - cpuSamples[0].Second;
        var cpuSeconds = SecondRow.CounterIncrease(cpuSamples.Select(s => (double?)s.Value));

        return new SeriesSummary
        {
            Series = series,
            Histogram = histogram,
            IntendedHistogram = intended,
            Latency = LatencyStats.From(histogram),
            LatencyIncludesFailures = latencyIncludesFailures,
            FailureLatency = latencyIncludesFailures ? null : LatencyStats.From(failed),
            ServerTime = serverTime.TotalCount == 0 ? null : LatencyStats.From(serverTime),
            QueueTime = queueTime.TotalCount == 0 ? null : LatencyStats.From(queueTime),
            IntendedLatency = intended is null ? null : LatencyStats.From(intended),
            Requests = requests,
            Failures = failures,
            ErrorRate = requests == 0 ? 0 : (double)failures / requests,
            FailuresByStatus = byStatus,
            SuccessesByStatus = successes,
            Seconds = samples.Count,
            WarmUpSecondsLeftOut = ordered.Count - samples.Count,
            ActiveSeconds = active,
            RequestsPerSecond = active == 0 ? 0 : (double)requests / active,
            PeakUsers = samples.Count == 0 ? 0 : samples.Max(s => s.Users),
            ServerSamples = server.Count,
            ActiveServerSamples = server.Count(r => r.Users > 0 || r.Requests > 0),
            PeakThreads = Peak(server, r => r.Threads),
            PeakBusyThreads = Peak(server, r => r.BusyThreads),
            PeakQueueLength = Peak(server, r => r.QueueLength),
            ContextSwitchesPerRequest = switches is null || requests == 0 ? null : switches / requests,
            MeanCpuPercent = cpuSeconds is null || cpuSpan == 0 ? null : cpuSeconds / cpuSpan * 100,
            CpuMsPerRequest = cpuSeconds is null || cpuSpan == 0 || requests == 0 ? null : cpuSeconds * 1000 / requests,
            PeakWorkingSetMb = Peak(server, r => r.WorkingSetMb),
            Cpu = TargetCpu.From(ordered),
            Runner = RunnerLoad.From(samples, cores),
            Runtime = RuntimeThreadPool.From(series, ordered),
            Stream = StreamMessages.From(samples, active),
            Recoveries = Recovery.For(EventWindows.For(series, events ?? []), samples),
            SoakSource = () => SoakTrend.From(series, samples),
            KneeSource = () => Analysis.Knee.Find(series, samples),
        };
    }

    /// <summary>The summary of every series of a run, in the manifest's order; a series without a timeline has zero samples.</summary>
    public static IReadOnlyList<SeriesSummary> ForRun(RunData run)
    {
        ArgumentNullException.ThrowIfNull(run);
        return [.. run.Manifest.Series.Select(s => From(s, TimelineOf(run, s.Id), run.Events, !run.Manifest.SeparatesFailures, run.Manifest.Machine.ProcessorCount))];
    }

    /// <summary>Whether series second <paramref name="second"/> (which covers [second, second + 1)) is warm-up: second &lt; WarmUpSeconds.</summary>
    public static bool IsWarmUp(SeriesInfo series, int second)
    {
        ArgumentNullException.ThrowIfNull(series);
        return second < series.WarmUpSeconds;
    }

    /// <summary>The timeline without its warm-up seconds: what every statistic is computed from.</summary>
    public static IReadOnlyList<SecondSample> Measured(SeriesInfo series, IReadOnlyList<SecondSample> timeline)
    {
        ArgumentNullException.ThrowIfNull(timeline);
        return [.. timeline.Where(s => !IsWarmUp(series, s.Second))];
    }

    // A counter's scrapes after the warm-up, preceded by its last scrape in the warm-up: the counter grew across the
    // boundary, and its increase over the measured time counts from there.
    private static List<(int Second, double Value)> Counter(SeriesInfo series, List<SecondSample> ordered, Func<SecondSample, double?> read)
    {
        var values = ordered.Select(s => (s.Second, Value: read(s))).Where(s => s.Value is not null).Select(s => (s.Second, Value: s.Value!.Value)).ToList();
        var start = values.FindIndex(s => !IsWarmUp(series, s.Second));
        return start < 0 ? [] : values[Math.Max(0, start - 1)..];
    }

    private static List<KeyValuePair<string, long>> SumByStatus(IEnumerable<IReadOnlyDictionary<string, long>> counts)
    {
        var sums = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var (status, count) in counts.SelectMany(c => c))
        {
            sums[status] = sums.GetValueOrDefault(status) + count;
        }

        return [.. sums.OrderByDescending(p => p.Value).ThenBy(p => p.Key, StringComparer.Ordinal)];
    }

    internal static IReadOnlyList<SecondSample> TimelineOf(RunData run, string seriesId) =>
        run.Timelines.TryGetValue(seriesId, out var samples) ? samples : [];

    private static double? Peak(List<SecondRow> rows, Func<SecondRow, double?> read)
    {
        double? peak = null;
        foreach (var row in rows)
        {
            if (read(row) is { } value && (peak is null || value > peak))
            {
                peak = value;
            }
        }

        return peak;
    }
}
