using System.Globalization;
using Harness.Metrics;
using Harness.Scheduling;

namespace Harness.ServiceDefaults;

/// <summary>/metrics in Prometheus text: the ThreadPool, the mode's scheduler, the service's own sources (operations, the stub's requests) and the process.</summary>
public static class MetricsEndpoint
{
    public static string Render(
        ServiceIdentity identity, IWorkScheduler? scheduler, IEnumerable<IMetricsSource> sources)
    {
        var w = new PrometheusWriter();
        var mode = identity.ModeName;
        w.Gauge(MetricNames.Info, "Constant 1; labels describe the service.", 1,
            (MetricNames.ServiceLabel, identity.Service), (MetricNames.ModeLabel, mode),
            (MetricNames.ProcessorsLabel, Environment.ProcessorCount.ToString(CultureInfo.InvariantCulture)),
            (MetricNames.GcLabel, System.Runtime.GCSettings.IsServerGC ? "server" : "workstation"));

        w.Gauge(MetricNames.Processors, "Processors the runtime uses (Environment.ProcessorCount; follows the CPU limit, rounded up).", Environment.ProcessorCount);
        w.Gauge(MetricNames.CpuLimitCores, "CPU limit of the container's cgroup in cores (quota / period); -1 when none is set.",
            CgroupCpuLimit.Read() ?? MetricNames.NoCpuLimit);

        w.Gauge(MetricNames.ThreadPoolThreads, "ThreadPool worker threads.", ThreadPool.ThreadCount);
        w.Gauge(MetricNames.ThreadPoolPendingWorkItems, "Work items queued on the ThreadPool, not yet started.", ThreadPool.PendingWorkItemCount);
        w.Counter(MetricNames.ThreadPoolCompletedWorkItemsTotal, "Work items the ThreadPool has completed.", ThreadPool.CompletedWorkItemCount);

        if (scheduler is not null)
        {
            var c = scheduler.GetCounters();
            var label = (MetricNames.ModeLabel, mode);
            w.Gauge(MetricNames.SchedulerThreads, "Threads of the scheduling mode's scheduler.", c.ThreadsTotal, label);
            w.Gauge(MetricNames.SchedulerBusyThreads, "Scheduler threads running a work item.", c.ThreadsBusy, label);
            w.Gauge(MetricNames.SchedulerQueueLength, "Work items queued on the scheduler, not yet started.", c.QueueLength, label);
            w.Counter(MetricNames.SchedulerCompletedTotal, "Work items the scheduler has completed.", c.Completed, label);
            w.Counter(MetricNames.SchedulerFailedTotal, "Work items that threw; the scheduler kept the thread.", c.Failed, label);
            if (scheduler is IocpScheduler iocp)
            {
                w.Gauge(MetricNames.SchedulerConcurrencyLimit, "Work items the iocp scheduler lets run at once.", iocp.ConcurrencyLimit, label);
            }
        }

        foreach (var source in sources)
        {
            source.Write(w);
        }

        var p = ProcessCounters.Read();
        w.Counter(MetricNames.ProcessCpuSecondsTotal, "User and system CPU time of the process.", p.CpuTime.TotalSeconds);
        w.Gauge(MetricNames.ProcessWorkingSetBytes, "Working set of the process.", p.WorkingSetBytes);
        w.Gauge(MetricNames.ProcessThreads, "OS threads of the process (from /proc; -1 where unavailable).", p.OsThreads);
        w.Counter(MetricNames.ProcessVoluntaryContextSwitchesTotal, "Voluntary context switches of every thread (from getrusage; -1 where unavailable).", p.VoluntaryContextSwitches);
        w.Counter(MetricNames.ProcessInvoluntaryContextSwitchesTotal, "Involuntary context switches of every thread (from getrusage; -1 where unavailable).", p.InvoluntaryContextSwitches);
        var gc = GC.GetGCMemoryInfo();
        w.Gauge(MetricNames.GcHeapBytes, "Bytes of the GC heap after the last collection (live objects and fragmentation).", gc.HeapSizeBytes);
        w.Gauge(MetricNames.GcCommittedBytes, "Memory the GC has committed; the rest of the working set is native (runtime, JIT code, socket buffers).", gc.TotalCommittedBytes);
        return w.ToString();
    }
}
