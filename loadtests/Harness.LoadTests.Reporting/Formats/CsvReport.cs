using System.Globalization;
using System.Text;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>
/// One series as CSV, one row per recorded second (a second with no sample has no row): the counterpart of
/// NBomber's CSV report, with the target's counters beside the client's figures. Latency in ms, of the successful
/// requests; the failed ones' in the failure_ columns.
/// </summary>
internal static class CsvReport
{
    public const string Header =
        "second,users,requests,failures,rps,mean_ms,p50_ms,p90_ms,p99_ms,max_ms,intended_mean_ms,intended_p99_ms,"
        + "os_threads,threadpool_threads,scheduler_threads,scheduler_busy_threads,queue_length,cpu_percent_of_one_core,context_switches_per_s,working_set_mb,container_cpu_throttled_percent,"
        + "failure_mean_ms,failure_p99_ms,warm_up,server_mean_ms,server_p99_ms,queue_mean_ms,queue_p99_ms,p99_9_ms,p99_99_ms,"
        + "runtime_threadpool_threads,runtime_threadpool_queue_length,"
        + "stream_calls,messages_sent,messages_received,first_message_p50_ms,first_message_p99_ms,message_gap_p50_ms,message_gap_p99_ms";

    /// <param name="samples">The series' timeline.</param>
    /// <param name="warmUpSeconds">The series' <see cref="SeriesInfo.WarmUpSeconds"/>: its seconds before that are marked warm_up = 1.</param>
    public static string Render(IReadOnlyList<SecondSample> samples, double warmUpSeconds = 0)
    {
        ArgumentNullException.ThrowIfNull(samples);
        var csv = new StringBuilder();
        csv.Append(Header).Append('\n');
        foreach (var r in SecondRow.From(samples))
        {
            var hasLatency = r.Latency.Count > 0;
            var intended = r.Intended is { Count: > 0 } ? r.Intended : null;
            var first = r.Stream is { FirstMessage.TotalCount: > 0 } ? LatencyStats.From(r.Stream.FirstMessage) : null;
            var gap = r.Stream is { MessageGap.TotalCount: > 0 } ? LatencyStats.From(r.Stream.MessageGap) : null;
            string[] cells =
            [
                r.Second.ToString(CultureInfo.InvariantCulture),
                r.Users.ToString(CultureInfo.InvariantCulture),
                r.Requests.ToString(CultureInfo.InvariantCulture),
                r.Failures.ToString(CultureInfo.InvariantCulture),

                // Each row is one second, so its requests are its rate.
                r.Requests.ToString(CultureInfo.InvariantCulture),
                Format.Csv(hasLatency ? r.Latency.MeanMs : null),
                Format.Csv(hasLatency ? r.Latency.P50Ms : null),
                Format.Csv(hasLatency ? r.Latency.P90Ms : null),
                Format.Csv(hasLatency ? r.Latency.P99Ms : null),
                Format.Csv(hasLatency ? r.Latency.MaxMs : null),
                Format.Csv(intended?.MeanMs),
                Format.Csv(intended?.P99Ms),
                Format.Csv(r.Threads),
                Format.Csv(r.ThreadPoolThreads),
                Format.Csv(r.SchedulerThreads),
                Format.Csv(r.BusyThreads),
                Format.Csv(r.QueueLength),
                Format.Csv(r.CpuPercent),
                Format.Csv(r.ContextSwitchesPerSecond),
                Format.Csv(r.WorkingSetMb),
                Format.Csv(r.ThrottledPercent),
                Format.Csv(r.FailureLatency?.MeanMs),
                Format.Csv(r.FailureLatency?.P99Ms),
                r.Second < warmUpSeconds ? "1" : "0",
                Format.Csv(r.ServerTime?.MeanMs),
                Format.Csv(r.ServerTime?.P99Ms),
                Format.Csv(r.QueueTime?.MeanMs),
                Format.Csv(r.QueueTime?.P99Ms),
                Format.Csv(hasLatency ? r.Latency.P999Ms : null),
                Format.Csv(hasLatency ? r.Latency.P9999Ms : null),
                Format.Csv(r.RuntimeThreads),
                Format.Csv(r.RuntimeQueueLength),
                Format.Csv(r.Stream?.Calls),
                Format.Csv(r.Stream?.MessagesSent),
                Format.Csv(r.Stream?.MessagesReceived),
                Format.Csv(first?.P50Ms),
                Format.Csv(first?.P99Ms),
                Format.Csv(gap?.P50Ms),
                Format.Csv(gap?.P99Ms),
            ];
            csv.AppendJoin(',', cells).Append('\n');
        }

        return csv.ToString();
    }

    /// <summary>A file name for the series: its id with anything unsafe replaced by '_'.</summary>
    public static string FileNameFor(string seriesId)
    {
        ArgumentNullException.ThrowIfNull(seriesId);
        var invalid = Path.GetInvalidFileNameChars();
        var safe = new string([.. seriesId.Select(c => invalid.Contains(c) || c is ':' or '\\' or '/' ? '_' : c)]);
        return (safe.Length == 0 ? "series" : safe) + ".csv";
    }
}
