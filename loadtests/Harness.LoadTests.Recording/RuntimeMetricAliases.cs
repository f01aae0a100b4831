using Harness.Metrics;

namespace Harness.LoadTests.Recording;

/// <summary>
/// Reads the .NET runtime figures of a service the harness did not write into the names the report reads
/// (<see cref="MetricNames"/>), whichever library exported them: OpenTelemetry's Prometheus exporter of the
/// <c>System.Runtime</c> meter, the older OpenTelemetry.Instrumentation.Runtime, prometheus-net, or
/// prometheus-net.DotNetRuntime (docs/runtime.md, "Standard metric names"). Applied to a parsed /metrics page, so
/// the raw files hold the canonical names and every report, old or new, reads them alike.
/// </summary>
public static class RuntimeMetricAliases
{
    /// <summary>One spelling of a figure another library gives, and the canonical name it fills.</summary>
    /// <param name="Source">The name as the library exports it.</param>
    /// <param name="Canonical">The contract's name.</param>
    /// <param name="SourceLabel">
    /// For a labelled canonical name: the source's label whose value becomes <paramref name="CanonicalLabel"/>'s. Null:
    /// the canonical has no label, and the source's series under every label set are summed into it (cpu_mode user +
    /// system).
    /// </param>
    /// <param name="CanonicalLabel">The canonical's label, with <paramref name="SourceLabel"/>.</param>
    public sealed record Alias(string Source, string Canonical, string? SourceLabel = null, string? CanonicalLabel = null);

    /// <summary>Every spelling read, by library.</summary>
    public static readonly IReadOnlyList<Alias> Table =
    [
        // OpenTelemetry's Prometheus exporter of the System.Runtime meter (.NET 9+). The runtime creates the ThreadPool's
        // thread count and queue length as observable counters, not up-down counters (dotnet/runtime issues 112077 and
        // 126167), so the exporter adds _total to them: measured with exporter 1.20.1-beta.1 on .NET 10.0.12. The
        // value is still the count now. A runtime with the fix gives the contract's names, read as they are.
        new("dotnet_thread_pool_thread_count_total", MetricNames.RuntimeThreadPoolThreads),
        new("dotnet_thread_pool_queue_length_total", MetricNames.RuntimeThreadPoolQueueLength),

        // The process and GC figures our own services publish under other names.
        new("dotnet_process_cpu_time_seconds_total", MetricNames.ProcessCpuSecondsTotal),
        new("dotnet_process_memory_working_set_bytes", MetricNames.ProcessWorkingSetBytes),
        new("dotnet_gc_last_collection_heap_size_bytes", MetricNames.GcHeapBytes),

        // OpenTelemetry.Instrumentation.Runtime before .NET 9 moved these into the runtime.
        new("process_runtime_dotnet_thread_pool_threads_count", MetricNames.RuntimeThreadPoolThreads),
        new("process_runtime_dotnet_thread_pool_queue_length", MetricNames.RuntimeThreadPoolQueueLength),
        new("process_runtime_dotnet_thread_pool_completed_items_count_total", MetricNames.RuntimeThreadPoolWorkItemsTotal),
        new("process_runtime_dotnet_monitor_lock_contention_count_total", MetricNames.RuntimeLockContentionsTotal),

        // prometheus-net's process collector (its process_cpu_seconds_total and process_working_set_bytes are ours already).
        new("process_num_threads", MetricNames.ProcessThreads),

        // prometheus-net.DotNetRuntime. Its dotnet_threadpool_queue_length is a histogram of sampled lengths
        // (_sum, _count, _bucket), not the length now, so only a plain gauge of that name is read.
        new("dotnet_threadpool_num_threads", MetricNames.RuntimeThreadPoolThreads),
        new("dotnet_threadpool_queue_length", MetricNames.RuntimeThreadPoolQueueLength),
        new("dotnet_threadpool_throughput_total", MetricNames.RuntimeThreadPoolWorkItemsTotal),
        new("dotnet_contention_total", MetricNames.RuntimeLockContentionsTotal),
        new("dotnet_gc_heap_size_bytes", MetricNames.GcHeapBytes),
        new("dotnet_threadpool_adjustments_total", MetricNames.RuntimeThreadPoolAdjustmentsTotal, "adjustment_reason", MetricNames.ReasonLabel),
    ];

    /// <summary>
    /// The samples with every alias found added under its canonical name. A canonical name the page already gives
    /// (under any labels) is never overwritten: the target's own spelling wins, and the source stays as it was.
    /// </summary>
    public static IReadOnlyDictionary<string, double> Apply(IReadOnlyDictionary<string, double> samples)
    {
        ArgumentNullException.ThrowIfNull(samples);
        var given = samples.Keys.Select(NameOf).ToHashSet(StringComparer.Ordinal);
        Dictionary<string, double>? added = null;
        foreach (var alias in Table)
        {
            if (given.Contains(alias.Canonical) || !given.Contains(alias.Source))
            {
                continue;
            }

            foreach (var (key, value) in samples)
            {
                if (NameOf(key) != alias.Source || double.IsNaN(value))
                {
                    continue;
                }

                var canonical = alias.SourceLabel is null ? alias.Canonical
                    : LabelOf(key, alias.SourceLabel) is { } label ? MetricNames.WithLabel(alias.Canonical, alias.CanonicalLabel!, label)
                    : null;
                if (canonical is not null)
                {
                    added ??= new Dictionary<string, double>(StringComparer.Ordinal);
                    added[canonical] = added.GetValueOrDefault(canonical) + value;
                }
            }
        }

        if (added is null)
        {
            return samples;
        }

        var result = new Dictionary<string, double>(samples, StringComparer.Ordinal);
        foreach (var (key, value) in added)
        {
            result.TryAdd(key, value);
        }

        return result;
    }

    private static string NameOf(string key)
    {
        var brace = key.IndexOf('{', StringComparison.Ordinal);
        return brace < 0 ? key : key[..brace];
    }

    // The parser keeps labels as written: name="value", values escaped with backslashes.
    private static string? LabelOf(string key, string label)
    {
        var open = key.IndexOf('{', StringComparison.Ordinal);
        if (open < 0)
        {
            return null;
        }

        var position = open + 1;
        while (position < key.Length)
        {
            while (position < key.Length && key[position] is ' ' or '\t' or ',')
            {
                position++;
            }

            var equals = key.IndexOf('=', position);
            if (equals < 0)
            {
                return null;
            }

            var name = key[position..equals].Trim();
            var quote = key.IndexOf('"', equals);
            if (quote < 0)
            {
                return null;
            }

            var end = quote + 1;
            while (end < key.Length && key[end] != '"')
            {
                end += key[end] == '\\' ? 2 : 1;
            }

            if (end >= key.Length)
            {
                return null;
            }

            if (name == label)
            {
                return key[(quote + 1)..end];
            }

            position = end + 1;
        }

        return null;
    }
}
