using System.Globalization;
using Harness.LoadTests.Recording;
using Harness.Metrics;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>
/// The CPU a series' target had, from its scraped /metrics: the processors its runtime used and its cgroup CPU limit.
/// The iocp concurrency and the ThreadPool's starting threads follow the processor count, which the runtime takes from
/// the limit, so modes compared on targets with different counts ran different experiments (a pod with
/// <c>limits.cpu: "1"</c> against a 2-core laptop): the report shows both per series and warns when a group's differ.
/// </summary>
/// <param name="Processors"><see cref="MetricNames.Processors"/>, else the processors label of <see cref="MetricNames.Info"/>
/// (services that predate the gauge); null when no second carried either.</param>
/// <param name="LimitCores">The CPU limit in cores; null when the target reported none set, or did not report it.</param>
/// <param name="LimitReported">Whether the target published <see cref="MetricNames.CpuLimitCores"/> at all, which tells
/// "no limit" (<see cref="MetricNames.NoCpuLimit"/>) from "not known".</param>
internal sealed record TargetCpu(int? Processors, double? LimitCores, bool LimitReported)
{
    public static readonly TargetCpu Unknown = new(null, null, false);

    /// <summary>The last values the timeline's seconds carried (they are the process's, so warm-up seconds count).</summary>
    public static TargetCpu From(IEnumerable<SecondSample> timeline)
    {
        ArgumentNullException.ThrowIfNull(timeline);
        int? processors = null;
        double? limit = null;
        var reported = false;
        foreach (var second in timeline.OrderBy(s => s.Second))
        {
            processors = ProcessorsOf(second.Server) ?? processors;
            if (second.Server.TryGetValue(MetricNames.CpuLimitCores, out var cores) && !double.IsNaN(cores))
            {
                reported = true;
                limit = cores > 0 ? cores : null;
            }
        }

        return new TargetCpu(processors, limit, reported);
    }

    /// <summary>True when the targets known to have a processor count do not all have the same one.</summary>
    public static bool ProcessorsDiffer(IEnumerable<TargetCpu> targets)
    {
        ArgumentNullException.ThrowIfNull(targets);
        return targets.Select(t => t.Processors).OfType<int>().Distinct().Count() > 1;
    }

    private static int? ProcessorsOf(IReadOnlyDictionary<string, double> server)
    {
        if (server.TryGetValue(MetricNames.Processors, out var value) && value >= 1)
        {
            return (int)value;
        }

        foreach (var key in server.Keys)
        {
            if (ServerMetrics.NameOf(key) == MetricNames.Info
                && int.TryParse(ServerMetrics.LabelOf(key, MetricNames.ProcessorsLabel), NumberStyles.None, CultureInfo.InvariantCulture, out var label))
            {
                return label;
            }
        }

        return null;
    }
}
