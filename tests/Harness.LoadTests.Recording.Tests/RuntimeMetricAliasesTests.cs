using Harness.Metrics;

namespace Harness.LoadTests.Recording.Tests;

/// <summary>
/// Expositions of a service's .NET runtime in each library's spelling, parsed and read into the contract's names
/// (docs/runtime.md, "Standard metric names").
/// </summary>
public sealed class RuntimeMetricAliasesTests
{
    // OpenTelemetry.Exporter.Prometheus.AspNetCore with the System.Runtime meter (.NET 9+): the scope label on every
    // series, the CPU split by cpu_mode, the GC heap by generation, OpenMetrics' UNIT lines and timestamps.
    private const string OpenTelemetrySystemRuntime = """
        # TYPE dotnet_thread_pool_thread_count gauge
        # HELP dotnet_thread_pool_thread_count The number of thread pool threads that currently exist.
        dotnet_thread_pool_thread_count{otel_scope_name="System.Runtime"} 14 1764300000000
        # TYPE dotnet_thread_pool_queue_length gauge
        dotnet_thread_pool_queue_length{otel_scope_name="System.Runtime"} 37 1764300000000
        # TYPE dotnet_thread_pool_work_item_count_total counter
        dotnet_thread_pool_work_item_count_total{otel_scope_name="System.Runtime"} 120345 1764300000000
        # TYPE dotnet_monitor_lock_contentions_total counter
        dotnet_monitor_lock_contentions_total{otel_scope_name="System.Runtime"} 12 1764300000000
        # TYPE dotnet_process_cpu_time_seconds_total counter
        # UNIT dotnet_process_cpu_time_seconds_total seconds
        dotnet_process_cpu_time_seconds_total{otel_scope_name="System.Runtime",cpu_mode="user"} 12.5 1764300000000
        dotnet_process_cpu_time_seconds_total{otel_scope_name="System.Runtime",cpu_mode="system"} 3.25 1764300000000
        # TYPE dotnet_process_memory_working_set_bytes gauge
        # UNIT dotnet_process_memory_working_set_bytes bytes
        dotnet_process_memory_working_set_bytes{otel_scope_name="System.Runtime"} 104857600 1764300000000
        # TYPE dotnet_gc_last_collection_heap_size_bytes gauge
        dotnet_gc_last_collection_heap_size_bytes{otel_scope_name="System.Runtime",gc_heap_generation="gen0"} 1000 1764300000000
        dotnet_gc_last_collection_heap_size_bytes{otel_scope_name="System.Runtime",gc_heap_generation="gen1"} 2000 1764300000000
        dotnet_gc_last_collection_heap_size_bytes{otel_scope_name="System.Runtime",gc_heap_generation="gen2"} 30000 1764300000000
        dotnet_gc_last_collection_heap_size_bytes{otel_scope_name="System.Runtime",gc_heap_generation="loh"} 4000 1764300000000
        dotnet_gc_last_collection_heap_size_bytes{otel_scope_name="System.Runtime",gc_heap_generation="poh"} 500 1764300000000
        # EOF
        """;

    // What OpenTelemetry.Exporter.Prometheus.HttpListener 1.20.1-beta.1 served with AddMeter("System.Runtime") on
    // .NET 10.0.12 (its runtime lines, as captured): the thread count and queue length typed as counters, with _total.
    private const string OpenTelemetryOnNet10 = """
        # TYPE dotnet_monitor_lock_contentions_total counter
        # HELP dotnet_monitor_lock_contentions_total The number of times there was contention when trying to acquire a monitor lock since the process has started.
        dotnet_monitor_lock_contentions_total{otel_scope_name="System.Runtime"} 8
        # TYPE dotnet_process_cpu_time_seconds_total counter
        # HELP dotnet_process_cpu_time_seconds_total CPU time used by the process.
        dotnet_process_cpu_time_seconds_total{otel_scope_name="System.Runtime",cpu_mode="user"} 0.143759
        dotnet_process_cpu_time_seconds_total{otel_scope_name="System.Runtime",cpu_mode="system"} 0.018922
        # TYPE dotnet_process_memory_working_set_bytes gauge
        dotnet_process_memory_working_set_bytes{otel_scope_name="System.Runtime"} 54947840
        # TYPE dotnet_thread_pool_queue_length_total counter
        # HELP dotnet_thread_pool_queue_length_total The number of work items that are currently queued to be processed by the thread pool.
        dotnet_thread_pool_queue_length_total{otel_scope_name="System.Runtime"} 0
        # TYPE dotnet_thread_pool_thread_count_total counter
        # HELP dotnet_thread_pool_thread_count_total The number of thread pool threads that currently exist.
        dotnet_thread_pool_thread_count_total{otel_scope_name="System.Runtime"} 3
        # TYPE dotnet_thread_pool_work_item_count_total counter
        # HELP dotnet_thread_pool_work_item_count_total The number of work items that the thread pool has completed since the process has started.
        dotnet_thread_pool_work_item_count_total{otel_scope_name="System.Runtime"} 75
        """;

    // OpenTelemetry.Instrumentation.Runtime before .NET 9 (AddRuntimeInstrumentation on .NET 8), an older exporter.
    private const string OpenTelemetryInstrumentationRuntime = """
        # HELP process_runtime_dotnet_thread_pool_threads_count The number of thread pool threads that currently exist.
        # TYPE process_runtime_dotnet_thread_pool_threads_count gauge
        process_runtime_dotnet_thread_pool_threads_count 9 1700000000000
        # TYPE process_runtime_dotnet_thread_pool_queue_length gauge
        process_runtime_dotnet_thread_pool_queue_length 4 1700000000000
        # TYPE process_runtime_dotnet_thread_pool_completed_items_count_total counter
        process_runtime_dotnet_thread_pool_completed_items_count_total 5521 1700000000000
        # TYPE process_runtime_dotnet_monitor_lock_contention_count_total counter
        process_runtime_dotnet_monitor_lock_contention_count_total 3 1700000000000
        # TYPE process_runtime_dotnet_gc_collections_count_total counter
        process_runtime_dotnet_gc_collections_count_total{generation="gen0"} 41 1700000000000
        """;

    // prometheus-net's default process collector, with prometheus-net.DotNetRuntime's ThreadPool, contention and GC stats.
    private const string PrometheusNetWithDotNetRuntime = """
        # HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.
        # TYPE process_cpu_seconds_total counter
        process_cpu_seconds_total 3.74
        # HELP process_working_set_bytes Process working set
        # TYPE process_working_set_bytes gauge
        process_working_set_bytes 86523904
        # HELP process_num_threads Total number of threads
        # TYPE process_num_threads gauge
        process_num_threads 31
        process_open_handles 220
        # HELP dotnet_threadpool_num_threads The number of active threads in the thread pool
        # TYPE dotnet_threadpool_num_threads gauge
        dotnet_threadpool_num_threads 22
        # HELP dotnet_threadpool_queue_length Measures the queue length of the thread pool. Values greater than 0 indicate a backlog of work for the threadpool to process.
        # TYPE dotnet_threadpool_queue_length histogram
        dotnet_threadpool_queue_length_sum 130
        dotnet_threadpool_queue_length_count 40
        dotnet_threadpool_queue_length_bucket{le="0"} 20
        dotnet_threadpool_queue_length_bucket{le="+Inf"} 40
        # TYPE dotnet_threadpool_throughput_total counter
        dotnet_threadpool_throughput_total 99120
        # TYPE dotnet_threadpool_adjustments_total counter
        dotnet_threadpool_adjustments_total{adjustment_reason="starvation"} 9
        dotnet_threadpool_adjustments_total{adjustment_reason="climbing_move"} 31
        dotnet_threadpool_adjustments_total{adjustment_reason="warmup"} 2
        # TYPE dotnet_contention_total counter
        dotnet_contention_total 17
        # TYPE dotnet_gc_heap_size_bytes gauge
        dotnet_gc_heap_size_bytes{gc_generation="0"} 100
        dotnet_gc_heap_size_bytes{gc_generation="2"} 900
        dotnet_gc_heap_size_bytes{gc_generation="loh"} 50
        """;

    [Fact]
    public void OpenTelemetrys_System_Runtime_fills_the_process_and_gc_columns_summing_cpu_modes_and_generations()
    {
        var samples = Read(OpenTelemetrySystemRuntime);

        Assert.Equal(14, ValueOf(samples, MetricNames.RuntimeThreadPoolThreads));
        Assert.Equal(37, ValueOf(samples, MetricNames.RuntimeThreadPoolQueueLength));
        Assert.Equal(120345, ValueOf(samples, MetricNames.RuntimeThreadPoolWorkItemsTotal));
        Assert.Equal(12, ValueOf(samples, MetricNames.RuntimeLockContentionsTotal));
        Assert.Equal(15.75, samples[MetricNames.ProcessCpuSecondsTotal], 9);
        Assert.Equal(104857600, samples[MetricNames.ProcessWorkingSetBytes]);
        Assert.Equal(37500, samples[MetricNames.GcHeapBytes]);
    }

    [Fact]
    public void The_thread_count_and_queue_length_a_net_10_runtime_exports_as_counters_are_read_as_the_counts_they_are()
    {
        var samples = Read(OpenTelemetryOnNet10);

        Assert.Equal(3, samples[MetricNames.RuntimeThreadPoolThreads]);
        Assert.Equal(0, samples[MetricNames.RuntimeThreadPoolQueueLength]);
        Assert.Equal(75, ValueOf(samples, MetricNames.RuntimeThreadPoolWorkItemsTotal));
        Assert.Equal(0.162681, samples[MetricNames.ProcessCpuSecondsTotal], 9);
        Assert.Equal(54947840, samples[MetricNames.ProcessWorkingSetBytes]);
    }

    [Fact]
    public void OpenTelemetry_Instrumentation_Runtimes_older_names_fill_the_runtime_columns()
    {
        var samples = Read(OpenTelemetryInstrumentationRuntime);

        Assert.Equal(9, samples[MetricNames.RuntimeThreadPoolThreads]);
        Assert.Equal(4, samples[MetricNames.RuntimeThreadPoolQueueLength]);
        Assert.Equal(5521, samples[MetricNames.RuntimeThreadPoolWorkItemsTotal]);
        Assert.Equal(3, samples[MetricNames.RuntimeLockContentionsTotal]);
        Assert.Equal(9, samples["process_runtime_dotnet_thread_pool_threads_count"]);
    }

    [Fact]
    public void Prometheus_net_and_DotNetRuntime_fill_threads_work_items_contentions_and_adjustments_by_reason()
    {
        var samples = Read(PrometheusNetWithDotNetRuntime);

        Assert.Equal(3.74, samples[MetricNames.ProcessCpuSecondsTotal]);
        Assert.Equal(86523904, samples[MetricNames.ProcessWorkingSetBytes]);
        Assert.Equal(31, samples[MetricNames.ProcessThreads]);
        Assert.Equal(22, samples[MetricNames.RuntimeThreadPoolThreads]);
        Assert.Equal(99120, samples[MetricNames.RuntimeThreadPoolWorkItemsTotal]);
        Assert.Equal(17, samples[MetricNames.RuntimeLockContentionsTotal]);
        Assert.Equal(1050, samples[MetricNames.GcHeapBytes]);
        Assert.Equal(9, samples[Adjustments("starvation")]);
        Assert.Equal(31, samples[Adjustments("climbing_move")]);
        Assert.Equal(2, samples[Adjustments("warmup")]);
    }

    [Fact]
    public void A_histogram_of_sampled_queue_lengths_is_not_read_as_the_queue_length()
    {
        var samples = Read(PrometheusNetWithDotNetRuntime);

        Assert.DoesNotContain(samples.Keys, k => k.StartsWith(MetricNames.RuntimeThreadPoolQueueLength, StringComparison.Ordinal));
    }

    [Fact]
    public void A_canonical_name_the_target_also_gives_is_never_overwritten()
    {
        const string Both = """
            process_cpu_seconds_total 5
            dotnet_process_cpu_time_seconds_total{cpu_mode="user"} 12
            dotnet_process_cpu_time_seconds_total{cpu_mode="system"} 3
            dotnet_thread_pool_thread_count 14
            dotnet_threadpool_num_threads 22
            harness_runtime_threadpool_adjustments_total{reason="starvation"} 4
            dotnet_threadpool_adjustments_total{adjustment_reason="starvation"} 9
            """;

        var samples = Read(Both);

        Assert.Equal(5, samples[MetricNames.ProcessCpuSecondsTotal]);
        Assert.Equal(14, samples[MetricNames.RuntimeThreadPoolThreads]);
        Assert.Equal(4, samples[Adjustments("starvation")]);
        Assert.Equal(12, samples["dotnet_process_cpu_time_seconds_total{cpu_mode=\"user\"}"]);
    }

    [Fact]
    public void A_page_without_any_alias_is_returned_as_it_was()
    {
        var parsed = PrometheusTextParser.Parse("harness_threadpool_threads 2\nprocess_threads 20\n");

        Assert.Same(parsed, RuntimeMetricAliases.Apply(parsed));
    }

    private static IReadOnlyDictionary<string, double> Read(string text)
    {
        var parsed = PrometheusTextParser.Parse(text, out var malformed);
        Assert.Equal(0, malformed);
        return RuntimeMetricAliases.Apply(parsed);
    }

    private static string Adjustments(string reason) => MetricNames.WithLabel(MetricNames.RuntimeThreadPoolAdjustmentsTotal, MetricNames.ReasonLabel, reason);

    // As the report reads a name: its value summed over every label set.
    private static double ValueOf(IReadOnlyDictionary<string, double> samples, string name) =>
        samples.Where(s => s.Key == name || s.Key.StartsWith(name + "{", StringComparison.Ordinal)).Sum(s => s.Value);
}
