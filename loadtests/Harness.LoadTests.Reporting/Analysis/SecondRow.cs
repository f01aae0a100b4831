using Harness.LoadTests.Recording;
using Harness.Metrics;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>
/// One second of a series with the server counters turned into what the charts and CSV show: gauges as scraped,
/// counters as rates over the gap since the previous scrape.
/// </summary>
/// <param name="CpuPercent">CPU time used per second of wall time, in % of one core (200 % = two cores busy).</param>
/// <param name="ContextSwitchesPerSecond">Voluntary + involuntary context switches of the target per second.</param>
/// <param name="ThrottledPercent">Containers only: % of the CPU quota periods of this second in which the container was throttled.</param>
/// <param name="Latency">Successful requests (every request in a format 2 run).</param>
/// <param name="FailureLatency">Failed requests; null when none failed or the run is of format 2.</param>
/// <param name="ServerTime">Server-reported execution time of the successful requests; null when none carried one.</param>
/// <param name="QueueTime">Their latency − server time (queueing and transport); null with <paramref name="ServerTime"/>.</param>
/// <param name="RuntimeThreads">The ThreadPool's threads as the target's .NET runtime reported them (<c>dotnet_thread_pool_thread_count</c>).</param>
/// <param name="RuntimeQueueLength">The ThreadPool's queue as the runtime reported it (<c>dotnet_thread_pool_queue_length</c>).</param>
/// <param name="Stream">The streaming calls that ended in this second and their messages; null when none streamed.</param>
internal sealed record SecondRow(
    int Second,
    int Users,
    long Requests,
    long Failures,
    LatencyStats Latency,
    LatencyStats? Intended,
    bool HasServer,
    double? Threads,
    double? ThreadPoolThreads,
    double? SchedulerThreads,
    double? BusyThreads,
    double? QueueLength,
    double? CpuPercent,
    double? ContextSwitchesPerSecond,
    double? WorkingSetMb,
    double? ThrottledPercent,
    LatencyStats? FailureLatency,
    LatencyStats? ServerTime,
    LatencyStats? QueueTime,
    double? RuntimeThreads = null,
    double? RuntimeQueueLength = null,
    StreamSample? Stream = null)
{
    /// <summary>Failures ÷ requests completed in this second, in %; null when none completed.</summary>
    public double? ErrorPercent => Requests == 0 ? null : 100.0 * Failures / Requests;

    public static IReadOnlyList<SecondRow> From(IReadOnlyList<SecondSample> samples)
    {
        ArgumentNullException.ThrowIfNull(samples);
        var rows = new List<SecondRow>(samples.Count);
        (int Second, double Value)? lastCpu = null, lastSwitches = null, lastPeriods = null, lastThrottled = null;
        foreach (var sample in samples.OrderBy(s => s.Second))
        {
            var server = sample.Server;
            var cpu = ServerMetrics.Value(server, ServerMetrics.CpuSecondsTotal);
            var switches = ServerMetrics.ContextSwitches(server);
            var workingSet = ServerMetrics.Value(server, ServerMetrics.WorkingSetBytes);
            var periods = ServerMetrics.Value(server, ServerMetrics.ContainerCpuPeriodsTotal);
            var throttled = ServerMetrics.Value(server, ServerMetrics.ContainerThrottledPeriodsTotal);
            var periodRate = RatePerSecond(lastPeriods, sample.Second, periods);
            var throttledRate = RatePerSecond(lastThrottled, sample.Second, throttled);
            rows.Add(new SecondRow(
                sample.Second,
                sample.Users,
                sample.Requests,
                sample.Failures,
                LatencyStats.From(sample.Latency),
                sample.IntendedLatency is null ? null : LatencyStats.From(sample.IntendedLatency),
                ServerMetrics.HasTarget(server),
                ServerMetrics.Threads(server),
                ServerMetrics.Value(server, ServerMetrics.ThreadPoolThreads),
                ServerMetrics.Value(server, ServerMetrics.SchedulerThreads),
                ServerMetrics.Value(server, ServerMetrics.SchedulerBusyThreads),
                ServerMetrics.QueueLength(server),
                RatePerSecond(lastCpu, sample.Second, cpu) * 100,
                RatePerSecond(lastSwitches, sample.Second, switches),
                workingSet / (1024 * 1024),
                periodRate > 0 ? throttledRate / periodRate * 100 : null,
                sample.FailureLatency is { TotalCount: > 0 } failed ? LatencyStats.From(failed) : null,
                sample.ServerTime is { TotalCount: > 0 } execution ? LatencyStats.From(execution) : null,
                sample.QueueTime is { TotalCount: > 0 } queue ? LatencyStats.From(queue) : null,
                ServerMetrics.Value(server, MetricNames.RuntimeThreadPoolThreads),
                ServerMetrics.Value(server, MetricNames.RuntimeThreadPoolQueueLength),
                sample.Stream));
            lastCpu = cpu is null ? lastCpu : (sample.Second, cpu.Value);
            lastSwitches = switches is null ? lastSwitches : (sample.Second, switches.Value);
            lastPeriods = periods is null ? lastPeriods : (sample.Second, periods.Value);
            lastThrottled = throttled is null ? lastThrottled : (sample.Second, throttled.Value);
        }

        return rows;
    }

    /// <summary>
    /// How much a counter grew over the scrapes, as Prometheus' <c>increase()</c> counts it: a drop means the
    /// target restarted, and the counter's new value is what it gained since. Null with fewer than two scrapes.
    /// </summary>
    public static double? CounterIncrease(IEnumerable<double?> values)
    {
        double? previous = null, increase = null;
        foreach (var value in values)
        {
            if (value is null)
            {
                continue;
            }

            if (previous is not null)
            {
                increase = (increase ?? 0) + (value >= previous ? value - previous : value);
            }

            previous = value;
        }

        return increase;
    }

    // A counter that went down was reset by a restart; the rate across the restart is unknown.
    private static double? RatePerSecond((int Second, double Value)? previous, int second, double? value) =>
        previous is { } p && value is { } v && second > p.Second && v >= p.Value ? (v - p.Value) / (second - p.Second) : null;
}
