using System.Globalization;
using k8s.Models;

namespace Harness.KubeletStandIn.Manifests;

/// <summary>
/// A Service here is a set of Docker network aliases on the selected pods: <c>name</c>, <c>name.ns</c>,
/// <c>name.ns.svc</c>, <c>name.ns.svc.cluster.local</c>. An alias reaches the pod's own ports, so it cannot remap
/// one: a Service whose <c>port</c> differs from the resolved <c>targetPort</c> is refused, naming it. A named
/// targetPort resolves through the selected containers' <c>ports</c>, as the endpoints controller does.
/// </summary>
internal static class ServicePorts
{
    /// <summary>Every problem: errors refuse the run, warnings are printed.</summary>
    public static (IReadOnlyList<string> Errors, IReadOnlyList<string> Warnings) Check(ManifestSet manifests)
    {
        var errors = new List<string>();
        var warnings = new List<string>();
        foreach (var service in manifests.Services)
        {
            var ns = ManifestSet.NamespaceOf(service.Metadata);
            var id = $"Service {ns}/{service.Metadata.Name}";
            if (service.Spec?.Type is "NodePort" or "LoadBalancer" or "ExternalName")
            {
                warnings.Add($"{id}: type {service.Spec.Type} is not emulated; it is a DNS alias on the run's network like a ClusterIP Service");
            }

            var selected = manifests.Workloads.Where(w => w.Namespace == ns && ManifestSet.Selects(service.Spec?.Selector, w.Labels)).ToList();
            if (selected.Count == 0)
            {
                warnings.Add($"{id}: its selector matches no Deployment or Job pod template; the name resolves to nothing");
                continue;
            }

            foreach (var port in service.Spec?.Ports ?? [])
            {
                foreach (var workload in selected)
                {
                    var target = Resolve(port, workload);
                    if (target is null)
                    {
                        warnings.Add($"{id} port {port.Port}: targetPort '{port.TargetPort?.Value}' is not a port of {workload.Id}'s containers; a cluster leaves that pod out of the Service");
                    }
                    else if (target != port.Port)
                    {
                        errors.Add($"{id} port {Describe(port)} → {workload.Id} port {target}: Docker network aliases cannot remap ports, so the stand-in needs port = targetPort");
                    }
                }
            }
        }

        return (errors, warnings);
    }

    /// <summary>The container port <paramref name="port"/> reaches in <paramref name="workload"/>'s pods, or null when a named one is not declared.</summary>
    public static int? Resolve(V1ServicePort port, Workload workload)
    {
        var target = port.TargetPort?.Value;
        if (string.IsNullOrEmpty(target))
        {
            return port.Port;
        }

        if (int.TryParse(target, NumberStyles.None, CultureInfo.InvariantCulture, out var number))
        {
            return number;
        }

        return workload.Pod.Containers?
            .SelectMany(c => c.Ports ?? [])
            .FirstOrDefault(p => p.Name == target && (p.Protocol ?? "TCP") == (port.Protocol ?? "TCP"))?.ContainerPort;
    }

    private static string Describe(V1ServicePort port) =>
        port.Name is { Length: > 0 } name ? $"{port.Port} ({name})" : port.Port.ToString(CultureInfo.InvariantCulture);
}
