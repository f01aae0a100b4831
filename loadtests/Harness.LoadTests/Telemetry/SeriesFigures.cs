using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.Metrics;
using Harness.LoadTests.Engine;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Running;
using Harness.Metrics;

namespace Harness.LoadTests.Telemetry;

/// <summary>
/// One series' figures as the exporters read them: requests and failures by status and the successes' latency
/// buckets (cumulative since the series started), and its last second as the progress line saw it.
/// </summary>
/// <remarks>
/// <see cref="OnRequest"/> is on every request's path: it takes no lock (a dictionary read once a status is known,
/// then interlocked increments). A reader may see a request in one counter and not yet in another; the histogram's
/// count is the sum of its buckets, so it never disagrees with them.
/// </remarks>
/// <param name="latency">OTLP's histogram of the same latencies, when OTLP is on.</param>
internal sealed class SeriesFigures(SeriesLabels labels, Histogram<double>? latency) : ISeriesFollower
{
    private readonly ConcurrentDictionary<string, StatusCounts> _statuses = new(StringComparer.Ordinal);
    private readonly long[] _buckets = new long[LatencyBuckets.Bounds.Count + 1];
    private readonly TagList _tags = new()
    {
        { MetricNames.SeriesLabel, labels.Id },
        { MetricNames.StackLabel, labels.Stack },
        { MetricNames.OperationLabel, labels.Operation },
        { MetricNames.ModeLabel, labels.Mode },
    };

    private long _latencyMicroseconds;
    private volatile ProgressSecond? _last;

    public SeriesLabels Labels { get; } = labels;

    /// <summary>The series' labels as name and value pairs, in the order the exposition writes them.</summary>
    public IReadOnlyList<(string Name, string Value)> LabelPairs { get; } =
    [
        (MetricNames.SeriesLabel, labels.Id), (MetricNames.StackLabel, labels.Stack),
        (MetricNames.OperationLabel, labels.Operation), (MetricNames.ModeLabel, labels.Mode),
    ];

    /// <summary>The series' last second while its load runs; null before the first and once it has ended.</summary>
    public ProgressSecond? Last
    {
        get => _last;
        set => _last = value;
    }

    public void OnRequest(in RequestSample sample)
    {
        // The statuses the run's files count the request under (RunRecorder.RecordRequest).
        var status = sample.StatusCode ?? (sample.IsSuccess ? RunRecorder.SuccessStatus : RunRecorder.UnknownStatus);
        if (!_statuses.TryGetValue(status, out var counts))
        {
            counts = _statuses.GetOrAdd(status, static _ => new StatusCounts());
        }

        Interlocked.Increment(ref counts.Requests);
        if (!sample.IsSuccess)
        {
            Interlocked.Increment(ref counts.Failures);
            return;
        }

        var seconds = sample.Latency.TotalSeconds;
        Interlocked.Increment(ref _buckets[LatencyBuckets.IndexOf(seconds)]);
        Interlocked.Add(ref _latencyMicroseconds, sample.Latency.Ticks / TimeSpan.TicksPerMicrosecond);
        latency?.Record(seconds, _tags);
    }

    /// <summary>Requests and failures so far, by status, in the order the statuses first appeared.</summary>
    public IReadOnlyList<(string Status, long Requests, long Failures)> Statuses() =>
        [.. _statuses.Select(s => (s.Key, Interlocked.Read(ref s.Value.Requests), Interlocked.Read(ref s.Value.Failures))).OrderBy(s => s.Key, StringComparer.Ordinal)];

    /// <summary>The successes' latency so far: per bucket (not cumulative; the last is above every bound), and their sum in seconds.</summary>
    public (long[] Buckets, double SumSeconds) Latency()
    {
        var buckets = new long[_buckets.Length];
        for (var i = 0; i < buckets.Length; i++)
        {
            buckets[i] = Interlocked.Read(ref _buckets[i]);
        }

        return (buckets, Interlocked.Read(ref _latencyMicroseconds) / 1e6);
    }

    /// <summary>The p50 and p99 of <paramref name="last"/>'s successes in seconds (to the microsecond the histogram records), by <see cref="MetricNames.QuantileLabel"/>; none when nothing succeeded.</summary>
    public static IEnumerable<(string Quantile, double Seconds)> Quantiles(ProgressSecond last)
    {
        if (last.P50Ms is { } p50)
        {
            yield return ("0.5", Math.Round(p50 / 1000, 6));
        }

        if (last.P99Ms is { } p99)
        {
            yield return ("0.99", Math.Round(p99 / 1000, 6));
        }
    }

    /// <summary>The series' labels and <paramref name="extra"/>, as OTLP tags.</summary>
    public TagList Tags(params (string Name, string Value)[] extra)
    {
        var tags = _tags;
        foreach (var (name, value) in extra)
        {
            tags.Add(name, value);
        }

        return tags;
    }

    private sealed class StatusCounts
    {
        public long Requests;
        public long Failures;
    }
}
