using Harness.Metrics;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>
/// Reads the target's scraped /metrics values. Keys are <c>name</c> or <c>name{labels}</c> as in Prometheus text;
/// a metric is matched by its name alone, and the values of one name under several label sets are summed
/// (e.g. <c>harness_operations_executing{operation=...}</c>). Negative values mean "unavailable" on /metrics
/// (e.g. /proc missing) and are ignored.
/// </summary>
internal static class ServerMetrics
{
    public const string OsThreads = MetricNames.ProcessThreads;
    public const string ThreadPoolThreads = MetricNames.ThreadPoolThreads;
    public const string ThreadPoolPending = MetricNames.ThreadPoolPendingWorkItems;
    public const string SchedulerThreads = MetricNames.SchedulerThreads;
    public const string SchedulerBusyThreads = MetricNames.SchedulerBusyThreads;
    public const string SchedulerQueueLength = MetricNames.SchedulerQueueLength;
    public const string CpuSecondsTotal = MetricNames.ProcessCpuSecondsTotal;
    public const string VoluntaryContextSwitches = MetricNames.ProcessVoluntaryContextSwitchesTotal;
    public const string InvoluntaryContextSwitches = MetricNames.ProcessInvoluntaryContextSwitchesTotal;
    public const string WorkingSetBytes = MetricNames.ProcessWorkingSetBytes;

    // Container stats that `harness matrix` samples beside /metrics (cAdvisor's names).
    public const string ContainerCpuSecondsTotal = MetricNames.ContainerCpuUsageSecondsTotal;
    public const string ContainerCpuPeriodsTotal = MetricNames.ContainerCpuCfsPeriodsTotal;
    public const string ContainerThrottledPeriodsTotal = MetricNames.ContainerCpuCfsThrottledPeriodsTotal;
    public const string ContainerThrottledSecondsTotal = MetricNames.ContainerCpuCfsThrottledSecondsTotal;
    public const string ContainerMemoryUsageBytes = MetricNames.ContainerMemoryUsageBytes;
    public const string ContainerMemoryLimitBytes = MetricNames.ContainerSpecMemoryLimitBytes;

    /// <summary>True when the second holds any of the target's own values, not only the runner's (<see cref="MetricNames.RunnerPrefix"/>).</summary>
    public static bool HasTarget(IReadOnlyDictionary<string, double> server) => MetricNames.HasTargetValues(server);

    /// <summary>The metric name of a key: everything before <c>{</c>.</summary>
    public static string NameOf(string key)
    {
        ArgumentNullException.ThrowIfNull(key);
        var brace = key.IndexOf('{', StringComparison.Ordinal);
        return (brace < 0 ? key : key[..brace]).Trim();
    }

    /// <summary>The value of a label in a key such as <c>harness_scheduler_threads{mode="iocp"}</c>, or null.</summary>
    public static string? LabelOf(string key, string label)
    {
        ArgumentNullException.ThrowIfNull(key);
        var open = key.IndexOf('{', StringComparison.Ordinal);
        if (open < 0)
        {
            return null;
        }

        var pattern = label + "=\"";
        var start = key.IndexOf(pattern, open, StringComparison.Ordinal);
        while (start > open && key[start - 1] is not ('{' or ',' or ' '))
        {
            start = key.IndexOf(pattern, start + 1, StringComparison.Ordinal);
        }

        if (start < 0)
        {
            return null;
        }

        start += pattern.Length;
        var end = key.IndexOf('"', start);
        return end < 0 ? null : key[start..end];
    }

    /// <summary>The sum of every non-negative value of <paramref name="name"/>, or null when none was scraped.</summary>
    public static double? Value(IReadOnlyDictionary<string, double> server, string name) =>
        Value(server, name, static _ => true);

    /// <summary>
    /// Threads of the target process: <c>process_threads</c> (every OS thread: ThreadPool, the mode's own
    /// threads, Kestrel, GC). Where /proc is missing, the ThreadPool's threads plus the mode scheduler's, counting
    /// the scheduler once when it is the ThreadPool itself (mode <c>threadpool</c> reports the ThreadPool's count).
    /// </summary>
    public static double? Threads(IReadOnlyDictionary<string, double> server)
    {
        var os = Value(server, OsThreads);
        if (os is not null)
        {
            return os;
        }

        var pool = Value(server, ThreadPoolThreads);
        var own = Value(server, SchedulerThreads, key => LabelOf(key, MetricNames.ModeLabel) != "threadpool");
        return pool is null && own is null ? null : (pool ?? 0) + (own ?? 0);
    }

    /// <summary>Work items waiting to start: the mode scheduler's queue, else the ThreadPool's pending items.</summary>
    public static double? QueueLength(IReadOnlyDictionary<string, double> server) =>
        Value(server, SchedulerQueueLength) ?? Value(server, ThreadPoolPending);

    /// <summary>Voluntary plus involuntary context switches of the process so far; null unless both were scraped.</summary>
    public static double? ContextSwitches(IReadOnlyDictionary<string, double> server)
    {
        var voluntary = Value(server, VoluntaryContextSwitches);
        var involuntary = Value(server, InvoluntaryContextSwitches);
        return voluntary is null || involuntary is null ? null : voluntary + involuntary;
    }

    private static double? Value(IReadOnlyDictionary<string, double> server, string name, Func<string, bool> include)
    {
        ArgumentNullException.ThrowIfNull(server);
        double? sum = null;
        foreach (var (key, value) in server)
        {
            if (value >= 0 && !double.IsNaN(value) && IsName(key, name) && include(key))
            {
                sum = (sum ?? 0) + value;
            }
        }

        return sum;
    }

    private static bool IsName(string key, string name) =>
        key.StartsWith(name, StringComparison.Ordinal)
        && (key.Length == name.Length || key[name.Length] is '{' or ' ');
}
