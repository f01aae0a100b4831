using Harness.Scheduling;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;

namespace Harness.ServiceDefaults;

/// <summary>/metrics in Prometheus text: the ThreadPool, the mode's scheduler, the service's own sources (operations, the stub's requests) and the process.</summary>
public static class MetricsEndpoint
{
    public static IEndpointConventionBuilder MapHarnessMetrics(this IEndpointRouteBuilder endpoints, string path = "/metrics") =>
        endpoints.MapGet(path, (HttpContext context) =>
        {
            var services = context.RequestServices;
            var text = Render(
                services.GetRequiredService<ServiceIdentity>(),
                services.GetService<IWorkScheduler>(),
                services.GetServices<IMetricsSource>());
            return Results.Text(text, PrometheusWriter.ContentType);
        });

    public static string Render(
        ServiceIdentity identity, IWorkScheduler? scheduler, IEnumerable<IMetricsSource> sources)
    {
        var w = new PrometheusWriter();
        var mode = identity.ModeName;
        w.Gauge("harness_info", "Constant 1; labels describe the service.", 1,
            ("service", identity.Service), ("mode", mode), ("processors", Environment.ProcessorCount.ToString(System.Globalization.CultureInfo.InvariantCulture)),
            ("gc", System.Runtime.GCSettings.IsServerGC ? "server" : "workstation"));

        w.Gauge("harness_threadpool_threads", "ThreadPool worker threads.", ThreadPool.ThreadCount);
        w.Gauge("harness_threadpool_pending_work_items", "Work items queued on the ThreadPool, not yet started.", ThreadPool.PendingWorkItemCount);
        w.Counter("harness_threadpool_completed_work_items_total", "Work items the ThreadPool has completed.", ThreadPool.CompletedWorkItemCount);

        if (scheduler is not null)
        {
            var c = scheduler.GetCounters();
            w.Gauge("harness_scheduler_threads", "Threads of the scheduling mode's scheduler.", c.ThreadsTotal, ("mode", mode));
            w.Gauge("harness_scheduler_busy_threads", "Scheduler threads running a work item.", c.ThreadsBusy, ("mode", mode));
            w.Gauge("harness_scheduler_queue_length", "Work items queued on the scheduler, not yet started.", c.QueueLength, ("mode", mode));
            w.Counter("harness_scheduler_completed_total", "Work items the scheduler has completed.", c.Completed, ("mode", mode));
            w.Counter("harness_scheduler_failed_total", "Work items that threw; the scheduler kept the thread.", c.Failed, ("mode", mode));
        }

        foreach (var source in sources)
        {
            source.Write(w);
        }

        var p = ProcessCounters.Read();
        w.Counter("process_cpu_seconds_total", "User and system CPU time of the process.", p.CpuTime.TotalSeconds);
        w.Gauge("process_working_set_bytes", "Working set of the process.", p.WorkingSetBytes);
        w.Gauge("process_threads", "OS threads of the process (from /proc; -1 where unavailable).", p.OsThreads);
        w.Counter("process_voluntary_context_switches_total", "Voluntary context switches (from /proc; -1 where unavailable).", p.VoluntaryContextSwitches);
        w.Counter("process_involuntary_context_switches_total", "Involuntary context switches (from /proc; -1 where unavailable).", p.InvoluntaryContextSwitches);
        return w.ToString();
    }
}
