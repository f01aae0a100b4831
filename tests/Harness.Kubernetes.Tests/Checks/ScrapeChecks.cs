using System.Globalization;
using Harness.Kubernetes.Tests.Tooling;
using k8s.Models;

namespace Harness.Kubernetes.Tests.Checks;

/// <summary>
/// A Prometheus finds every /metrics the stack serves, once: a pod that serves one carries the usual annotations
/// (prometheus.io/scrape "true", prometheus.io/port that port, prometheus.io/path /metrics) and a pod that serves none
/// carries none; the operator's monitors (overlays/monitoring) reach a port that serves it on every Service or pod
/// they select, and no pod is scraped by both a ServiceMonitor and a PodMonitor.
/// </summary>
public static class ScrapeChecks
{
    public const string Scrape = "prometheus.io/scrape";
    public const string Port = "prometheus.io/port";
    public const string Path = "prometheus.io/path";

    public static IReadOnlyList<string> All(Manifests manifests) =>
    [
        .. manifests.Workloads.SelectMany(Annotations),
        .. manifests.ServiceMonitors.SelectMany(m => ServiceMonitor(manifests, m)),
        .. manifests.PodMonitors.SelectMany(m => PodMonitor(manifests, m)),
        .. Overlaps(manifests),
    ];

    /// <summary>
    /// The container port a pod serves /metrics on: a service's dedicated Listen__MetricsPort, else a Harness service's
    /// Listen__Port (the stub's one port), else the harness command's --metrics-port; null when it serves none.
    /// </summary>
    public static int? MetricsPort(Workload workload)
    {
        foreach (var container in workload.Pod.Containers)
        {
            var port = Ports.Env(container, Ports.MetricsPort) ?? Ports.Env(container, Ports.ListenPort)
                ?? (container.Args is ["run", ..] or ["coordinate", ..] ? ContainerArgs.Value(ContainerArgs.Expanded(container), "--metrics-port") : null);
            if (port is not null)
            {
                return int.TryParse(port, NumberStyles.None, CultureInfo.InvariantCulture, out var number) ? number : -1;
            }
        }

        return null;
    }

    public static IReadOnlyList<string> Annotations(Workload workload)
    {
        var annotations = workload.Template.Metadata?.Annotations;
        var (scrape, port, path) = (annotations.Value(Scrape), annotations.Value(Port), annotations.Value(Path));
        if (MetricsPort(workload) is not { } metrics)
        {
            return scrape is null && port is null ? [] : [$"{workload.Id}: serves no /metrics, yet its pod is annotated {Scrape}={scrape}, {Port}={port}"];
        }

        var expected = metrics.ToString(CultureInfo.InvariantCulture);
        return scrape == "true" && port == expected && path == "/metrics"
            ? []
            : [$"{workload.Id}: serves /metrics on port {expected}; its pod needs {Scrape}: \"true\", {Port}: \"{expected}\", {Path}: /metrics (has {scrape}, {port}, {path})"];
    }

    public static IReadOnlyList<string> ServiceMonitor(Manifests manifests, V1ServiceMonitor monitor)
    {
        var id = $"ServiceMonitor/{monitor.Metadata.Name}";
        var services = manifests.Services.Where(s => Matches(monitor.Spec.Selector, s.Metadata.Labels)).ToList();
        if (services.Count == 0 || monitor.Spec.Endpoints.Count == 0)
        {
            return [$"{id}: selects no Service or has no endpoint; it would scrape nothing"];
        }

        var errors = new List<string>();
        foreach (var service in services)
        {
            foreach (var endpoint in monitor.Spec.Endpoints)
            {
                // The Service's named port, then the container port it reaches on the one workload it selects.
                var servicePort = service.Spec.Ports.FirstOrDefault(p => p.Name == endpoint.Port);
                var workload = manifests.Selected(service.Spec.Selector).FirstOrDefault();
                var reached = servicePort is null || workload is null ? null
                    : workload.Pod.Containers.Select(c => Ports.Resolve(c, servicePort.TargetPort?.Value ?? servicePort.Port.ToString(CultureInfo.InvariantCulture)))
                        .OfType<V1ContainerPort>().FirstOrDefault();
                if (reached is null || workload is null || endpoint.Path != "/metrics" || reached.ContainerPort != MetricsPort(workload))
                {
                    errors.Add($"{id}: endpoint port '{endpoint.Port}' path {endpoint.Path} does not reach the /metrics of Service/{service.Metadata.Name}'s pods");
                }
            }
        }

        return errors;
    }

    public static IReadOnlyList<string> PodMonitor(Manifests manifests, V1PodMonitor monitor)
    {
        var id = $"PodMonitor/{monitor.Metadata.Name}";
        var workloads = manifests.Workloads.Where(w => Matches(monitor.Spec.Selector, w.Template.Metadata?.Labels)).ToList();
        if (!workloads.Any(w => MetricsPort(w) is not null) || monitor.Spec.PodMetricsEndpoints.Count == 0)
        {
            return [$"{id}: selects no pod that serves /metrics, or has no endpoint; it would scrape nothing"];
        }

        var errors = new List<string>();
        foreach (var workload in workloads.Where(w => MetricsPort(w) is not null))
        {
            foreach (var endpoint in monitor.Spec.PodMetricsEndpoints)
            {
                var reached = workload.Pod.Containers.SelectMany(c => c.Ports ?? []).FirstOrDefault(p => p.Name == endpoint.Port);
                if (reached is null || endpoint.Path != "/metrics" || reached.ContainerPort != MetricsPort(workload))
                {
                    errors.Add($"{id}: endpoint port '{endpoint.Port}' path {endpoint.Path} does not reach {workload.Id}'s /metrics (port {MetricsPort(workload)})");
                }
            }
        }

        return errors;
    }

    /// <summary>A pod behind a ServiceMonitor's Service and also a PodMonitor's would be scraped twice, its counters counted twice by a sum.</summary>
    public static IReadOnlyList<string> Overlaps(Manifests manifests)
    {
        var viaServices = manifests.ServiceMonitors
            .SelectMany(m => manifests.Services.Where(s => Matches(m.Spec.Selector, s.Metadata.Labels)))
            .SelectMany(s => manifests.Selected(s.Spec.Selector));
        var viaPods = manifests.PodMonitors.SelectMany(m => manifests.Workloads.Where(w => Matches(m.Spec.Selector, w.Template.Metadata?.Labels)));
        return [.. viaServices.Intersect(viaPods).Select(w => $"{w.Id}: scraped by a ServiceMonitor and a PodMonitor alike")];
    }

    /// <summary>A label selector's rule: every matchLabels pair, and every matchExpressions (In, NotIn, Exists, DoesNotExist).</summary>
    public static bool Matches(V1LabelSelector selector, IDictionary<string, string>? labels) =>
        (selector.MatchLabels ?? new Dictionary<string, string>()).All(l => labels.Value(l.Key) == l.Value)
        && (selector.MatchExpressions ?? []).All(e => e.OperatorProperty switch
        {
            "In" => labels.Value(e.Key) is { } v && e.Values.Contains(v),
            "NotIn" => labels.Value(e.Key) is not { } v || !e.Values.Contains(v),
            "Exists" => labels.Value(e.Key) is not null,
            "DoesNotExist" => labels.Value(e.Key) is null,
            _ => false,
        });
}
