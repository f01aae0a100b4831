using Harness.KubeletStandIn.Manifests;
using Harness.KubeletStandIn.Pods;
using Harness.KubeletStandIn.Probes;

namespace Harness.KubeletStandIn;

/// <summary>
/// Everything checked before anything runs: what the API server would refuse and the stand-in relies on (a Job's
/// restartPolicy, a probe's fields), and what the stand-in cannot run faithfully. Errors refuse the run (exit 2);
/// warnings name what runs, but differently than on a cluster.
/// </summary>
internal static class Preflight
{
    public static (IReadOnlyList<string> Errors, IReadOnlyList<string> Warnings) Check(ManifestSet manifests)
    {
        var (errors, warnings) = ServicePorts.Check(manifests);
        var e = new List<string>(errors);
        var w = new List<string>(warnings);
        foreach (var workload in manifests.Workloads)
        {
            CheckWorkload(workload, e, w);
        }

        return (e, w);
    }

    private static void CheckWorkload(Workload workload, List<string> errors, List<string> warnings)
    {
        var pod = workload.Pod;
        var id = workload.Id;
        if (pod.Containers is not { Count: > 0 })
        {
            errors.Add($"{id}: the pod template has no containers");
            return;
        }

        if (pod.HostNetwork == true || pod.HostPID == true || pod.HostIPC == true)
        {
            errors.Add($"{id}: hostNetwork, hostPID and hostIPC are not emulated (and the restricted Pod Security Standard forbids them)");
        }

        var policy = pod.RestartPolicy ?? "Always";
        if (workload.Job is { } job)
        {
            if (policy is not ("Never" or "OnFailure"))
            {
                errors.Add($"{id}: a Job's restartPolicy must be Never or OnFailure (found {policy})");
            }

            if (job.Spec.PodFailurePolicy is not null || job.Spec.BackoffLimitPerIndex is not null || job.Spec.SuccessPolicy is not null)
            {
                errors.Add($"{id}: podFailurePolicy, backoffLimitPerIndex and successPolicy are not emulated");
            }

            if (job.Spec.CompletionMode == "Indexed" && job.Spec.Completions is null)
            {
                errors.Add($"{id}: an Indexed Job needs completions");
            }
        }
        else if (policy != "Always")
        {
            errors.Add($"{id}: a Deployment's restartPolicy must be Always (found {policy})");
        }

        if (pod.ActiveDeadlineSeconds is not null)
        {
            warnings.Add($"{id}: the pod's own activeDeadlineSeconds is not emulated (a Job's is)");
        }

        errors.AddRange(PodVolumes.Unsupported(workload));
        foreach (var init in pod.InitContainers ?? [])
        {
            if (init.RestartPolicy is not null)
            {
                errors.Add($"{id} init container {init.Name}: sidecar containers (restartPolicy on an init container) are not emulated");
            }

            if (init.LivenessProbe is not null || init.ReadinessProbe is not null || init.StartupProbe is not null)
            {
                errors.Add($"{id} init container {init.Name}: init containers may not have probes");
            }
        }

        foreach (var container in workload.AllContainers)
        {
            CheckContainer(id, workload, container, errors, warnings);
        }
    }

    private static void CheckContainer(string id, Workload workload, k8s.Models.V1Container container, List<string> errors, List<string> warnings)
    {
        var where = $"{id} container {container.Name}";
        foreach (var (kind, probe) in new[] { (ProbeKind.Startup, container.StartupProbe), (ProbeKind.Liveness, container.LivenessProbe), (ProbeKind.Readiness, container.ReadinessProbe) })
        {
            if (probe is null)
            {
                continue;
            }

            if (ProbeSettings.Validate(kind, probe) is { } problem)
            {
                errors.Add($"{where}: {problem}");
            }
            else if ((probe.HttpGet?.Port ?? probe.TcpSocket?.Port) is { } port && ProbeSettings.ResolvePort(port, container) is null)
            {
                errors.Add($"{where}: {kind} probe port '{port.Value}' is not a number nor a named port of the container");
            }
        }

        if (container.ImagePullPolicy == "Always")
        {
            warnings.Add($"{where}: imagePullPolicy Always: the stand-in never pulls; it runs the local image {container.Image}");
        }

        if (container.Ports?.Any(p => p.HostPort is > 0) == true)
        {
            warnings.Add($"{where}: hostPort is not published (the stand-in publishes nothing on the host)");
        }

        if (container.Lifecycle is not null)
        {
            warnings.Add($"{where}: lifecycle hooks (postStart, preStop) are not run");
        }

        foreach (var note in EffectiveSecurity.Merge(workload.Pod.SecurityContext, container.SecurityContext).NotEmulated())
        {
            warnings.Add($"{where}: {note} is not emulated");
        }
    }
}
