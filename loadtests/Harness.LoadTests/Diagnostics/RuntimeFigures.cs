using Harness.Metrics;

namespace Harness.LoadTests.Diagnostics;

/// <summary>
/// What an EventPipe session has told of a target's runtime so far, under the names of <see cref="MetricNames"/>: the
/// latest value of each <c>System.Runtime</c> meter instrument it follows, and the ThreadPool's adjustments counted since
/// the attach. Fed by the session's reading thread, read once a second by the series; every member takes one lock.
/// </summary>
internal sealed class RuntimeFigures
{
    /// <summary>The <c>System.Runtime</c> meter's instruments (.NET 9 and later) and the names they are recorded under; tagged series are summed (CPU by mode, heap by generation).</summary>
    public static readonly IReadOnlyDictionary<string, string> Instruments = new Dictionary<string, string>(StringComparer.Ordinal)
    {
        ["dotnet.thread_pool.thread.count"] = MetricNames.RuntimeThreadPoolThreads,
        ["dotnet.thread_pool.queue.length"] = MetricNames.RuntimeThreadPoolQueueLength,
        ["dotnet.thread_pool.work_item.count"] = MetricNames.RuntimeThreadPoolWorkItemsTotal,
        ["dotnet.monitor.lock_contentions"] = MetricNames.RuntimeLockContentionsTotal,
        ["dotnet.process.cpu.time"] = MetricNames.ProcessCpuSecondsTotal,
        ["dotnet.process.memory.working_set"] = MetricNames.ProcessWorkingSetBytes,
        ["dotnet.gc.last_collection.heap.size"] = MetricNames.GcHeapBytes,
    };

    /// <summary>Readings not yet taken that are kept: a few seconds' worth, more than the recorder still takes late.</summary>
    private const int MaxPendingCollections = 8;

    private readonly Lock _gate = new();
    private readonly Dictionary<(string Name, string Tags), double> _meter = [];
    private readonly long[] _adjustments = new long[MetricNames.AdjustmentReasons.Count];
    private long _starvationThreads;
    private int? _threadGoal;
    private List<(DateTime AtUtc, Dictionary<string, double> Values)> _collections = [];

    /// <summary>True once any meter value has arrived: the target has the <c>System.Runtime</c> meter.</summary>
    public bool HasMeterValues
    {
        get
        {
            lock (_gate)
            {
                return _meter.Count > 0;
            }
        }
    }

    /// <summary>Adjustment events seen, whatever their reason.</summary>
    public long Adjustments
    {
        get
        {
            lock (_gate)
            {
                return _adjustments.Sum();
            }
        }
    }

    /// <summary>A value the meter published: a gauge's or up-down counter's level, or a counter's total so far.</summary>
    /// <param name="tags">The series' tags as the event writes them (<c>cpu.mode=user</c>); one value is kept per tag set.</param>
    public void MeterValue(string instrument, string tags, double value)
    {
        if (!Instruments.ContainsKey(instrument) || !double.IsFinite(value))
        {
            return;
        }

        lock (_gate)
        {
            _meter[(instrument, tags)] = value;
        }
    }

    /// <summary>
    /// The meter's collection that ended at <paramref name="atUtc"/> (in the target) has published all its values:
    /// they are kept as one reading, for <see cref="TakeCollections"/>. At most <see cref="MaxPendingCollections"/> wait.
    /// </summary>
    public void EndCollection(DateTime atUtc)
    {
        lock (_gate)
        {
            if (_meter.Count == 0)
            {
                return;
            }

            if (_collections.Count == MaxPendingCollections)
            {
                _collections.RemoveAt(0);
            }

            _collections.Add((atUtc, MeterValues()));
        }
    }

    /// <summary>The readings ended since the last call, oldest first, each with when the target took it.</summary>
    public IReadOnlyList<(DateTime AtUtc, Dictionary<string, double> Values)> TakeCollections()
    {
        lock (_gate)
        {
            var taken = _collections;
            _collections = [];
            return taken;
        }
    }

    /// <summary>
    /// A <c>ThreadPoolWorkerThreadAdjustment/Adjustment</c> event: the pool's new thread goal and why. Threads added by
    /// starvation or cooperative blocking (the new goal less the last one known, when positive) count apart; before the
    /// first adjustment the last known goal is the meter's thread count.
    /// </summary>
    /// <param name="reason">The runtime's <c>ThreadAdjustmentReasonMap</c> (0–8); another is counted under no reason but still moves the goal.</param>
    public void Adjustment(int newThreadCount, int reason)
    {
        lock (_gate)
        {
            var previous = _threadGoal ?? (Sum(MetricNames.RuntimeThreadPoolThreads) is { } threads ? (int)threads : null);
            if (reason >= 0 && reason < _adjustments.Length)
            {
                _adjustments[reason]++;
                if (MetricNames.StarvationAdjustmentReasons.Contains(MetricNames.AdjustmentReasons[reason]) && previous is { } before && newThreadCount > before)
                {
                    _starvationThreads += newThreadCount - before;
                }
            }

            _threadGoal = newThreadCount;
        }
    }

    /// <summary>Each meter figure known so far, by its recorded name.</summary>
    public Dictionary<string, double> MeterSnapshot()
    {
        lock (_gate)
        {
            return MeterValues();
        }
    }

    /// <summary>
    /// The adjustments so far: every reason's count (zeros included: attached and none is an answer) and the
    /// starvation threads.
    /// </summary>
    public Dictionary<string, double> AdjustmentSnapshot()
    {
        var values = new Dictionary<string, double>(StringComparer.Ordinal);
        lock (_gate)
        {
            for (var reason = 0; reason < _adjustments.Length; reason++)
            {
                values[MetricNames.WithLabel(MetricNames.RuntimeThreadPoolAdjustmentsTotal, MetricNames.ReasonLabel, MetricNames.AdjustmentReasons[reason])] = _adjustments[reason];
            }

            values[MetricNames.RuntimeThreadPoolStarvationThreadsTotal] = _starvationThreads;
        }

        return values;
    }

    // Under _gate.
    private Dictionary<string, double> MeterValues()
    {
        var values = new Dictionary<string, double>(StringComparer.Ordinal);
        foreach (var name in Instruments.Values.Distinct())
        {
            if (Sum(name) is { } value)
            {
                values[name] = value;
            }
        }

        return values;
    }

    // Under _gate.
    private double? Sum(string name)
    {
        double? sum = null;
        foreach (var ((instrument, _), value) in _meter)
        {
            if (Instruments[instrument] == name)
            {
                sum = (sum ?? 0) + value;
            }
        }

        return sum;
    }
}
