using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Text;
using Harness.Metrics;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>
/// The target's .NET ThreadPool as its runtime reported it over a series' measured seconds (the names of
/// <see cref="MetricNames"/>' runtime part: from an EventPipe session the runner attached, or a service's own /metrics
/// read into those names), and the starvation verdict drawn from it. Our own services' <c>harness_threadpool_*</c> are
/// not read here: they are the service's account, this is the runtime's.
/// </summary>
/// <remarks>
/// What the runtime reports: its thread count and queue length when sampled, its work items and lock contentions, and
/// each thread adjustment with its reason. What is inferred here: "work waited in the queue" counts the seconds whose
/// one queue-length sample was above zero. The runtime reports no wait per work item, so a queue that filled and
/// drained between two samples is missed, and one that held a single item at the sampling instant counts as a second.
/// </remarks>
internal sealed record RuntimeThreadPool
{
    /// <summary>Measured seconds that carried any runtime ThreadPool figure.</summary>
    public required int Seconds { get; init; }

    /// <summary>Most ThreadPool threads of any measured second; null when the thread count was not reported.</summary>
    public double? PeakThreads { get; init; }

    /// <summary>Longest queue of work items not yet started in any measured second; null when the queue length was not reported.</summary>
    public double? PeakQueueLength { get; init; }

    /// <summary>
    /// Threads added per second: each scrape's rise in the thread count over the previous one (falls not subtracted),
    /// summed over the measured seconds, ÷ the seconds between the first scrape and the last; null without two scrapes.
    /// </summary>
    public double? ThreadsAddedPerSecond { get; init; }

    /// <summary>Measured seconds whose queue-length sample was above zero (inferred: see the remarks); null when not reported.</summary>
    public int? QueuedSeconds { get; init; }

    /// <summary>The increase of each reason's thread adjustments over the measured seconds, most first; empty when none were reported.</summary>
    public IReadOnlyList<KeyValuePair<string, double>> AdjustmentsByReason { get; init; } = [];

    /// <summary>
    /// Threads the runtime injected for starvation over the measured seconds: the increase of
    /// <see cref="MetricNames.RuntimeThreadPoolStarvationThreadsTotal"/>, or, where only the adjustments are reported
    /// (prometheus-net.DotNetRuntime), of the starvation and cooperative-blocking adjustments
    /// (<see cref="FromAdjustments"/>). Null when neither was reported: then nothing says whether the pool starved.
    /// </summary>
    public double? StarvationThreads { get; init; }

    /// <summary>True when <see cref="StarvationThreads"/> counts adjustments rather than the threads they added.</summary>
    public bool FromAdjustments { get; init; }

    /// <summary>The first and last measured second in which threads were injected for starvation; null when none were.</summary>
    public (int First, int Last)? StarvationSpan { get; init; }

    /// <summary>Seconds from the first injection to the last, both counted.</summary>
    public int StarvationSeconds => StarvationSpan is { } s ? s.Last - s.First + 1 : 0;

    /// <summary>True when the runtime injected threads for starvation in the measured seconds.</summary>
    public bool Starved => StarvationThreads > 0;

    /// <param name="series">The series, for its warm-up.</param>
    /// <param name="timeline">Its seconds, warm-up included (a counter's increase counts from the warm-up's last scrape).</param>
    /// <returns>Null when no measured second carries a runtime ThreadPool figure: no verdict to give.</returns>
    public static RuntimeThreadPool? From(SeriesInfo series, IReadOnlyList<SecondSample> timeline)
    {
        ArgumentNullException.ThrowIfNull(series);
        ArgumentNullException.ThrowIfNull(timeline);
        var ordered = timeline.OrderBy(s => s.Second).ToList();
        var measured = ordered.Where(s => !SeriesSummary.IsWarmUp(series, s.Second)).ToList();
        var seconds = measured.Count(s => s.Server.Keys.Any(IsRuntimeKey));
        if (seconds == 0)
        {
            return null;
        }

        var threads = Gauge(measured, MetricNames.RuntimeThreadPoolThreads);
        var queue = Gauge(measured, MetricNames.RuntimeThreadPoolQueueLength);
        var reasons = ordered.SelectMany(s => s.Server.Keys)
            .Where(k => ServerMetrics.NameOf(k) == MetricNames.RuntimeThreadPoolAdjustmentsTotal)
            .Select(k => ServerMetrics.LabelOf(k, MetricNames.ReasonLabel))
            .OfType<string>()
            .Distinct(StringComparer.Ordinal)
            .ToList();
        var byReason = reasons.ToDictionary(r => r, r => Steps(series, ordered, s => ReasonValue(s, r)), StringComparer.Ordinal);

        var starvationThreads = Steps(series, ordered, s => ServerMetrics.Value(s.Server, MetricNames.RuntimeThreadPoolStarvationThreadsTotal));
        var fromAdjustments = starvationThreads.Count == 0 && MetricNames.StarvationAdjustmentReasons.Any(byReason.ContainsKey);
        var injections = fromAdjustments ? [.. MetricNames.StarvationAdjustmentReasons.Where(byReason.ContainsKey).SelectMany(r => byReason[r])] : starvationThreads;
        var reported = starvationThreads.Count > 0 || fromAdjustments;
        var injected = injections.Where(i => i.Increase > 0).Select(i => i.Second).ToList();

        return new RuntimeThreadPool
        {
            Seconds = seconds,
            PeakThreads = threads.Count == 0 ? null : threads.Max(t => t.Value),
            PeakQueueLength = queue.Count == 0 ? null : queue.Max(q => q.Value),
            ThreadsAddedPerSecond = ThreadsAdded(series, ordered),
            QueuedSeconds = queue.Count == 0 ? null : queue.Count(q => q.Value > 0),
            AdjustmentsByReason = [.. byReason.Select(r => new KeyValuePair<string, double>(r.Key, r.Value.Sum(i => i.Increase)))
                .OrderByDescending(r => r.Value).ThenBy(r => r.Key, StringComparer.Ordinal)],
            StarvationThreads = reported ? injections.Sum(i => i.Increase) : null,
            FromAdjustments = fromAdjustments,
            StarvationSpan = injected.Count == 0 ? null : (injected.Min(), injected.Max()),
        };
    }

    /// <summary>
    /// The verdict in words: "ThreadPool starvation: 37 threads injected for starvation over 41 s; work waited in the queue
    /// 38 s", "no ThreadPool starvation", or that the figures do not say.
    /// </summary>
    public string Describe()
    {
        var queue = QueuedSeconds switch
        {
            null => "queue length not reported",
            var n => $"work waited in the queue {Format.Integer(n)} s",
        };
        if (StarvationThreads is not { } threads)
        {
            return $"ThreadPool starvation not known: the target's runtime figures have no thread adjustments (attach to it with pid=, or export prometheus-net.DotNetRuntime's); {queue}";
        }

        if (threads <= 0)
        {
            return QueuedSeconds is > 0 ? $"no ThreadPool starvation; {queue}" : "no ThreadPool starvation";
        }

        var cause = Cause();
        var what = FromAdjustments
            ? $"{Format.Integer(threads)} {(threads == 1 ? "thread adjustment" : "thread adjustments")} {cause}"
            : cause == ForStarvation
                ? $"{Format.Integer(threads)} {(threads == 1 ? "thread" : "threads")} injected {cause}"
                // A blocked wait raises the goal and its end lowers it again, so the raises summed can exceed the
                // threads the pool ever had: say what was counted.
                : $"thread goal raised by {Format.Integer(threads)} {cause}";
        return $"ThreadPool starvation: {what} over {Format.Integer(StarvationSeconds)} s; {queue}";
    }

    /// <summary>
    /// Which of the two reasons added the threads, as the adjustments by reason say: a pool where no work item started
    /// for a while ("for starvation"), or one told of a thread blocked on a task ("for blocked waits": the runtime's
    /// cooperative blocking, e.g. <c>.Result</c> on a ThreadPool thread). "for starvation" when the reasons were not reported.
    /// </summary>
    private const string ForStarvation = "for starvation";

    private string Cause()
    {
        var starvation = AdjustmentsByReason.Any(r => r.Key == "starvation" && r.Value > 0);
        var blocking = AdjustmentsByReason.Any(r => r.Key == "cooperative_blocking" && r.Value > 0);
        return (starvation, blocking) switch
        {
            (false, true) => "for blocked waits (cooperative blocking)",
            (true, true) => "for starvation and blocked waits",
            _ => ForStarvation,
        };
    }

    /// <summary>True for a key the runtime part of the contract names (the ThreadPool's, the lock contentions').</summary>
    public static bool IsRuntimeKey(string key)
    {
        var name = ServerMetrics.NameOf(key);
        return name is MetricNames.RuntimeThreadPoolThreads or MetricNames.RuntimeThreadPoolQueueLength or MetricNames.RuntimeThreadPoolWorkItemsTotal
            or MetricNames.RuntimeThreadPoolAdjustmentsTotal or MetricNames.RuntimeThreadPoolStarvationThreadsTotal;
    }

    private static List<(int Second, double Value)> Gauge(List<SecondSample> measured, string name) =>
        [.. measured.Select(s => (s.Second, Value: ServerMetrics.Value(s.Server, name))).Where(s => s.Value is not null).Select(s => (s.Second, s.Value!.Value))];

    private static double? ReasonValue(SecondSample sample, string reason)
    {
        double? sum = null;
        foreach (var (key, value) in sample.Server)
        {
            if (value >= 0 && ServerMetrics.NameOf(key) == MetricNames.RuntimeThreadPoolAdjustmentsTotal && ServerMetrics.LabelOf(key, MetricNames.ReasonLabel) == reason)
            {
                sum = (sum ?? 0) + value;
            }
        }

        return sum;
    }

    /// <summary>
    /// A counter's increase at each measured scrape over the one before (from the warm-up's last scrape), by
    /// Prometheus' <c>increase()</c> rule: a drop is a restart, and the new value is what was gained since.
    /// </summary>
    private static List<(int Second, double Increase)> Steps(SeriesInfo series, List<SecondSample> ordered, Func<SecondSample, double?> read)
    {
        var values = ordered.Select(s => (s.Second, Value: read(s))).Where(s => s.Value is not null).Select(s => (s.Second, Value: s.Value!.Value)).ToList();
        var start = values.FindIndex(s => !SeriesSummary.IsWarmUp(series, s.Second));
        var steps = new List<(int, double)>();
        if (start < 0)
        {
            return steps;
        }

        for (var i = Math.Max(1, start); i < values.Count; i++)
        {
            var (previous, current) = (values[i - 1].Value, values[i].Value);
            steps.Add((values[i].Second, current >= previous ? current - previous : current));
        }

        // A counter first seen in the measured seconds with no scrape before: it started there, nothing gained yet.
        if (start == 0 && steps.Count == 0)
        {
            steps.Add((values[0].Second, 0));
        }

        return steps;
    }

    private static double? ThreadsAdded(SeriesInfo series, List<SecondSample> ordered)
    {
        var values = ordered.Select(s => (s.Second, Value: ServerMetrics.Value(s.Server, MetricNames.RuntimeThreadPoolThreads)))
            .Where(s => s.Value is not null).Select(s => (s.Second, Value: s.Value!.Value)).ToList();
        var start = values.FindIndex(s => !SeriesSummary.IsWarmUp(series, s.Second));
        if (start < 0)
        {
            return null;
        }

        var from = Math.Max(0, start - 1);
        var span = values[^1].Second - values[from].Second;
        if (span <= 0)
        {
            return null;
        }

        var added = 0.0;
        for (var i = from + 1; i < values.Count; i++)
        {
            added += Math.Max(0, values[i].Value - values[i - 1].Value);
        }

        return added / span;
    }
}
