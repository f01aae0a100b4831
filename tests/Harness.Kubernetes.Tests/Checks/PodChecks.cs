using Harness.Kubernetes.Tests.Tooling;
using k8s.Models;

namespace Harness.Kubernetes.Tests.Checks;

/// <summary>
/// What every pod of the harness must be: the restricted Pod Security Standard (checked on the effective values,
/// container over pod), Guaranteed QoS, and for long-running containers probes that cannot end a measurement.
/// Each check returns violations, one line each naming the workload and container; empty means it passes.
/// </summary>
public static class PodChecks
{
    public const long Uid = 1654;

    /// <summary>Liveness must tolerate this long without an answer: a restart mid-run ends the measurement, and a
    /// probe on a Kestrel port (the stub's) waits for a ThreadPool thread like any request.</summary>
    public static readonly TimeSpan MinLivenessTolerance = TimeSpan.FromMinutes(2);

    /// <summary>Readiness, likewise: an unready pod leaves the Service and its load turns into errors.</summary>
    public static readonly TimeSpan MinReadinessTolerance = TimeSpan.FromMinutes(1);

    // The volume types the restricted profile allows.
    private static readonly string[] RestrictedVolumeTypes =
        ["ConfigMap", "Csi", "DownwardAPI", "EmptyDir", "Ephemeral", "PersistentVolumeClaim", "Projected", "Secret"];

    public static IReadOnlyList<string> Restricted(Workload workload)
    {
        var errors = new List<string>();
        var pod = workload.Pod;
        var podContext = pod.SecurityContext;
        if (pod.HostNetwork == true || pod.HostPID == true || pod.HostIPC == true)
        {
            errors.Add($"{workload.Id}: hostNetwork, hostPID and hostIPC must be off");
        }

        if (pod.AutomountServiceAccountToken != false)
        {
            errors.Add($"{workload.Id}: automountServiceAccountToken must be false (no pod of the harness talks to the API server)");
        }

        foreach (var volume in pod.Volumes ?? [])
        {
            var used = typeof(V1Volume).GetProperties()
                .Where(p => p.Name != nameof(V1Volume.Name) && p.GetValue(volume) is not null).Select(p => p.Name).ToList();
            if (used.Any(u => !RestrictedVolumeTypes.Contains(u)))
            {
                errors.Add($"{workload.Id}: volume {volume.Name} is {string.Join(", ", used)}; restricted allows {string.Join(", ", RestrictedVolumeTypes)}");
            }
        }

        foreach (var container in workload.AllContainers)
        {
            var where = $"{workload.Id} container {container.Name}";
            var context = container.SecurityContext;
            if ((context?.RunAsNonRoot ?? podContext?.RunAsNonRoot) != true)
            {
                errors.Add($"{where}: runAsNonRoot must be true");
            }

            if ((context?.RunAsUser ?? podContext?.RunAsUser) != Uid || (context?.RunAsGroup ?? podContext?.RunAsGroup) != Uid)
            {
                errors.Add($"{where}: runAsUser and runAsGroup must be {Uid}, the images' app user");
            }

            if ((context?.SeccompProfile ?? podContext?.SeccompProfile)?.Type is not ("RuntimeDefault" or "Localhost"))
            {
                errors.Add($"{where}: seccompProfile.type must be RuntimeDefault");
            }

            if (context?.AllowPrivilegeEscalation != false)
            {
                errors.Add($"{where}: allowPrivilegeEscalation must be false");
            }

            if (context?.Privileged == true)
            {
                errors.Add($"{where}: privileged must not be set");
            }

            if (context?.Capabilities?.Drop?.Contains("ALL") != true || context.Capabilities.Add is { Count: > 0 })
            {
                errors.Add($"{where}: capabilities must drop ALL and add none");
            }

            if (context?.ReadOnlyRootFilesystem != true)
            {
                errors.Add($"{where}: readOnlyRootFilesystem must be true");
            }

            if (container.Ports?.Any(p => p.HostPort is not null) == true)
            {
                errors.Add($"{where}: hostPort is not allowed");
            }

            var tmp = container.VolumeMounts?.FirstOrDefault(m => m.MountPath == "/tmp");
            if ((tmp is null || pod.Volumes?.FirstOrDefault(v => v.Name == tmp.Name)?.EmptyDir is null))
            {
                errors.Add($"{where}: /tmp must be an emptyDir (the root filesystem is read-only)");
            }
        }

        return errors;
    }

    /// <summary>Guaranteed QoS: every container states CPU and memory with requests equal to limits, so each mode
    /// gets the same CPU however busy the node is (as `harness matrix` gives every container the same limits).</summary>
    public static IReadOnlyList<string> Guaranteed(Workload workload)
    {
        var errors = new List<string>();
        foreach (var container in workload.AllContainers)
        {
            var requests = container.Resources?.Requests;
            var limits = container.Resources?.Limits;
            foreach (var resource in new[] { "cpu", "memory" })
            {
                if (requests?.TryGetValue(resource, out var request) != true || limits?.TryGetValue(resource, out var limit) != true
                    || request!.ToDecimal() != limit!.ToDecimal())
                {
                    errors.Add($"{workload.Id} container {container.Name}: {resource} requests must equal limits (Guaranteed QoS)");
                }
            }
        }

        return errors;
    }

    /// <summary>Deployments run until deleted: each container needs readiness and liveness probes, on ports it
    /// declares, tolerant enough not to end a measurement. A container with a dedicated port (Listen__MetricsPort,
    /// answered by a thread of its own) must be probed there with GET /healthz: its Kestrel ports (Listen__Port,
    /// Listen__AdminPort, and gRPC's grpc.health.v1 on the first) wait behind the workload.</summary>
    public static IReadOnlyList<string> Probes(Workload workload)
    {
        var errors = new List<string>();
        if (workload.Kind != "Deployment")
        {
            return errors;
        }

        foreach (var container in workload.Pod.Containers)
        {
            var where = $"{workload.Id} container {container.Name}";
            foreach (var (kind, probe, tolerance) in new[]
                     {
                         ("readiness", container.ReadinessProbe, MinReadinessTolerance),
                         ("liveness", container.LivenessProbe, MinLivenessTolerance),
                     })
            {
                if (probe is null)
                {
                    errors.Add($"{where}: no {kind} probe");
                    continue;
                }

                var port = probe.HttpGet?.Port?.Value ?? probe.Grpc?.Port.ToString(System.Globalization.CultureInfo.InvariantCulture)
                    ?? probe.TcpSocket?.Port?.Value;
                var resolved = port is null ? null : Ports.Resolve(container, port);
                if (resolved is null)
                {
                    errors.Add($"{where}: the {kind} probe's port '{port}' is not one of the container's ports");
                }
                else if (Ports.Env(container, Ports.MetricsPort) is { } dedicated
                         && resolved.ContainerPort.ToString(System.Globalization.CultureInfo.InvariantCulture) != dedicated)
                {
                    errors.Add($"{where}: the {kind} probe asks port {port} ({Ports.Describe(container, resolved.ContainerPort)}), a Kestrel port where the "
                        + $"workload delays it; probe /healthz on {Ports.MetricsPort} {dedicated}, which a thread of the service's own answers");
                }
                else if (Ports.Env(container, Ports.MetricsPort) is { } metricsPort && probe.HttpGet is null)
                {
                    errors.Add($"{where}: the {kind} probe on {Ports.MetricsPort} {metricsPort} must be an httpGet of /healthz; that port speaks HTTP/1.1 only");
                }

                if (probe.HttpGet is { } get && get.Path != "/healthz")
                {
                    errors.Add($"{where}: the {kind} probe must GET /healthz, not {get.Path}");
                }

                var tolerated = TimeSpan.FromSeconds((probe.PeriodSeconds ?? 10) * (probe.FailureThreshold ?? 3));
                if (tolerated < tolerance || (probe.TimeoutSeconds ?? 1) < 5)
                {
                    errors.Add($"{where}: the {kind} probe gives up after {tolerated.TotalSeconds:0} s (timeout {probe.TimeoutSeconds ?? 1} s); at least {tolerance.TotalSeconds:0} s and a 5 s timeout, so a busy service is not failed mid-run");
                }
            }
        }

        return errors;
    }
}
