namespace Harness.Metrics;

/// <summary>
/// Every metric and label name on the services' <c>/metrics</c>, and the container stats <c>harness matrix</c>
/// samples beside them. The writers (ServiceDefaults' MetricsEndpoint, the operation counters, the stub) and the
/// readers (the load runner's reporting, the tests) use these constants, so a name cannot drift on one side.
/// </summary>
public static partial class MetricNames
{
    // Labels.
    public const string ServiceLabel = "service";
    public const string ModeLabel = "mode";
    public const string ProcessorsLabel = "processors";
    public const string GcLabel = "gc";
    public const string OperationLabel = "operation";

    // Values of OperationLabel: the operations as the metrics spell them (CallThirdParty in code, call-third-party
    // on the command line).
    public const string ComputeOperation = "compute";
    public const string CallThirdPartyOperation = "call_third_party";

    /// <summary>Constant 1; the labels describe the service.</summary>
    public const string Info = "harness_info";

    // The CPU the service was given. The runtime takes its processor count from the container's CPU limit (rounded
    // up), and the iocp concurrency and the ThreadPool's starting threads follow it: targets with different counts ran
    // different experiments, which the report says.

    /// <summary><c>Environment.ProcessorCount</c>: the processors the runtime uses (also the <see cref="ProcessorsLabel"/> of <see cref="Info"/>).</summary>
    public const string Processors = "harness_processors";

    /// <summary>The cgroup's CPU limit in cores (quota ÷ period); <see cref="NoCpuLimit"/> when none is set.</summary>
    public const string CpuLimitCores = "harness_cpu_limit_cores";

    /// <summary>The value of <see cref="CpuLimitCores"/> that means "no limit".</summary>
    public const double NoCpuLimit = -1;

    public const string ThreadPoolThreads = "harness_threadpool_threads";
    public const string ThreadPoolPendingWorkItems = "harness_threadpool_pending_work_items";
    public const string ThreadPoolCompletedWorkItemsTotal = "harness_threadpool_completed_work_items_total";

    // The scheduling mode's scheduler, labelled with ModeLabel.
    public const string SchedulerThreads = "harness_scheduler_threads";
    public const string SchedulerBusyThreads = "harness_scheduler_busy_threads";
    public const string SchedulerQueueLength = "harness_scheduler_queue_length";
    public const string SchedulerCompletedTotal = "harness_scheduler_completed_total";
    public const string SchedulerFailedTotal = "harness_scheduler_failed_total";

    /// <summary>Iocp mode only: the work items it lets run at once (<c>Scheduling__IocpConcurrency</c>, else the processors).</summary>
    public const string SchedulerConcurrencyLimit = "harness_scheduler_concurrency_limit";

    // The operations, labelled with OperationLabel.
    public const string OperationsExecuting = "harness_operations_executing";
    public const string OperationsExecutingPeak = "harness_operations_executing_peak";
    public const string OperationsCompletedTotal = "harness_operations_completed_total";
    public const string OperationsFailedTotal = "harness_operations_failed_total";

    // The third-party stub.
    public const string StubWaitingRequests = "harness_stub_waiting_requests";
    public const string StubServedTotal = "harness_stub_served_total";

    // The process (-1 where the platform does not tell).
    public const string ProcessCpuSecondsTotal = "process_cpu_seconds_total";
    public const string ProcessWorkingSetBytes = "process_working_set_bytes";
    public const string ProcessThreads = "process_threads";
    public const string ProcessVoluntaryContextSwitchesTotal = "process_voluntary_context_switches_total";
    public const string ProcessInvoluntaryContextSwitchesTotal = "process_involuntary_context_switches_total";

    // The .NET GC of the process: where a working set's bytes are (docs/s1-scale.md).
    public const string GcHeapBytes = "dotnet_gc_heap_bytes";
    public const string GcCommittedBytes = "dotnet_gc_committed_bytes";

    // The load runner's own process, sampled by the runner into each series' second beside the target's /metrics,
    // so a report shows when the load generator rather than the service was the limit.
    public const string RunnerCpuSecondsTotal = "harness_runner_cpu_seconds_total";
    public const string RunnerWorkingSetBytes = "harness_runner_working_set_bytes";
    public const string RunnerThreads = "harness_runner_threads";
    public const string RunnerGcHeapBytes = "harness_runner_gc_heap_bytes";

    /// <summary>The prefix of every runner-side name: such keys are not the target's.</summary>
    public const string RunnerPrefix = "harness_runner_";

    /// <summary>True when a second's sample map holds any of the target's own values, not only the runner's.</summary>
    public static bool HasTargetValues(IReadOnlyDictionary<string, double> sample)
    {
        ArgumentNullException.ThrowIfNull(sample);
        return sample.Keys.Any(k => !k.StartsWith(RunnerPrefix, StringComparison.Ordinal));
    }

    // Container stats that `harness matrix` samples beside /metrics (cAdvisor's names).
    public const string ContainerCpuUsageSecondsTotal = "container_cpu_usage_seconds_total";
    public const string ContainerCpuCfsPeriodsTotal = "container_cpu_cfs_periods_total";
    public const string ContainerCpuCfsThrottledPeriodsTotal = "container_cpu_cfs_throttled_periods_total";
    public const string ContainerCpuCfsThrottledSecondsTotal = "container_cpu_cfs_throttled_seconds_total";
    public const string ContainerMemoryUsageBytes = "container_memory_usage_bytes";
    public const string ContainerSpecMemoryLimitBytes = "container_spec_memory_limit_bytes";

    /// <summary>A sample's key as Prometheus text writes it with one label, e.g. <c>harness_operations_executing{operation="compute"}</c>.</summary>
    public static string WithLabel(string name, string label, string value) => $"{name}{{{label}=\"{value}\"}}";
}
