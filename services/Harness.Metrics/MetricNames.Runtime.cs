namespace Harness.Metrics;

/// <summary>
/// The .NET runtime of a target the harness did not write, as server figures beside the load. The names are the
/// <c>System.Runtime</c> meter's (.NET 9 and later) in Prometheus form, so a service that already exports them over
/// /metrics and one the runner attaches to over EventPipe (<c>pid=</c>) fill the same columns. (.NET 10 creates the
/// thread-count and queue-length instruments as observable counters, so OpenTelemetry's exporter writes them with a
/// <c>_total</c> suffix; both spellings are read into these.) Older spellings (OpenTelemetry.Instrumentation.Runtime's <c>process_runtime_dotnet_*</c>,
/// prometheus-net's) are read into these names. Our own services' <c>harness_threadpool_*</c> stay apart, so the two
/// sources can be checked against each other.
/// </summary>
public static partial class MetricNames
{
    /// <summary>Threads the ThreadPool has now (<c>dotnet.thread_pool.thread.count</c>).</summary>
    public const string RuntimeThreadPoolThreads = "dotnet_thread_pool_thread_count";

    /// <summary>Work items queued and not yet started (<c>dotnet.thread_pool.queue.length</c>).</summary>
    public const string RuntimeThreadPoolQueueLength = "dotnet_thread_pool_queue_length";

    /// <summary>Work items the ThreadPool has completed (<c>dotnet.thread_pool.work_item.count</c>).</summary>
    public const string RuntimeThreadPoolWorkItemsTotal = "dotnet_thread_pool_work_item_count_total";

    /// <summary>Times a thread waited for a lock another held (<c>dotnet.monitor.lock_contentions</c>).</summary>
    public const string RuntimeLockContentionsTotal = "dotnet_monitor_lock_contentions_total";

    /// <summary>
    /// The ThreadPool's thread-count changes, from the runtime's <c>ThreadPoolWorkerThreadAdjustment/Adjustment</c>
    /// events, labelled with <see cref="ReasonLabel"/> (<see cref="AdjustmentReasons"/>). Not a System.Runtime meter:
    /// only an EventPipe session, or prometheus-net.DotNetRuntime's <c>dotnet_threadpool_adjustments_total</c>, has it.
    /// </summary>
    public const string RuntimeThreadPoolAdjustmentsTotal = "harness_runtime_threadpool_adjustments_total";

    /// <summary>
    /// Threads added by adjustments whose reason is starvation or cooperative blocking (the new count less the count
    /// before it, when positive): the runtime's own account of work waiting for a thread.
    /// </summary>
    public const string RuntimeThreadPoolStarvationThreadsTotal = "harness_runtime_threadpool_starvation_threads_total";

    public const string ReasonLabel = "reason";

    /// <summary>
    /// The adjustment reasons that mean work waited for a thread, whose added threads
    /// <see cref="RuntimeThreadPoolStarvationThreadsTotal"/> counts and the starvation verdict reads.
    /// </summary>
    public static readonly IReadOnlyList<string> StarvationAdjustmentReasons = ["starvation", "cooperative_blocking"];

    /// <summary>
    /// The adjustment reasons the runtime reports (its <c>ThreadAdjustmentReasonMap</c>, in order 0–8), as label values.
    /// </summary>
    public static readonly IReadOnlyList<string> AdjustmentReasons =
    [
        "warmup", "initializing", "random_move", "climbing_move", "change_point", "stabilizing", "starvation",
        "thread_timed_out", "cooperative_blocking",
    ];
}
