using System.Globalization;
using Harness.Agreements;
using Harness.Kubernetes.Tests.Tooling;
using k8s.Models;

namespace Harness.Kubernetes.Tests.Checks;

/// <summary>
/// How the objects fit together: the namespace's Pod Security labels, Services that reach exactly one workload on
/// ports it listens on, modes that are what their labels say, Jobs that end, and the labels every object carries.
/// </summary>
public static class StackChecks
{
    public const string ModeLabel = "harness/mode";
    public const string PartOf = "app.kubernetes.io/part-of";
    public static readonly string[] RecommendedLabels = ["app.kubernetes.io/name", "app.kubernetes.io/component", PartOf];

    public static IReadOnlyList<string> All(Manifests manifests) =>
    [
        .. Namespace(manifests),
        .. manifests.Workloads.SelectMany(w => PodChecks.Restricted(w).Concat(PodChecks.Guaranteed(w)).Concat(PodChecks.Probes(w))),
        .. manifests.Workloads.SelectMany(ListenPorts),
        .. manifests.Workloads.SelectMany(Modes),
        .. manifests.Workloads.SelectMany(w => DedicatedMetrics(manifests, w)),
        .. manifests.Workloads.SelectMany(Labels),
        .. manifests.Services.SelectMany(s => Service(manifests, s)),
        .. manifests.Jobs.SelectMany(Job),
        .. ScrapeChecks.All(manifests),
        .. RunnerChecks.All(manifests),
    ];

    public static IReadOnlyList<string> Namespace(Manifests manifests)
    {
        var errors = new List<string>();
        var namespaces = manifests.Namespaces.ToList();
        if (namespaces.Count != 1)
        {
            return [$"expected one Namespace, found {namespaces.Count}"];
        }

        var ns = namespaces[0];
        foreach (var mode in new[] { "enforce", "audit", "warn" })
        {
            if (ns.Metadata.Labels.Value($"pod-security.kubernetes.io/{mode}") != "restricted")
            {
                errors.Add($"Namespace/{ns.Metadata.Name}: pod-security.kubernetes.io/{mode} must be restricted");
            }
        }

        foreach (var meta in manifests.Objects.OfType<k8s.IKubernetesObject<V1ObjectMeta>>().Where(o => o is not V1Namespace).Select(o => o.Metadata))
        {
            if (meta.NamespaceProperty != ns.Metadata.Name)
            {
                errors.Add($"{meta.Name}: namespace '{meta.NamespaceProperty}', not the restricted {ns.Metadata.Name}");
            }
        }

        return errors;
    }

    /// <summary>A service listens on 0.0.0.0 (its default is loopback) and declares exactly the ports it is
    /// configured with, so probes and Services reach what the process really opened.</summary>
    public static IReadOnlyList<string> ListenPorts(Workload workload)
    {
        var errors = new List<string>();
        foreach (var container in workload.Pod.Containers.Where(c => c.Ports is { Count: > 0 }))
        {
            var where = $"{workload.Id} container {container.Name}";
            if (container.Args is ["coordinate", ..] or ["run", ..])
            {
                errors.AddRange(RunnerPorts(where, container));
                continue;
            }

            if (Ports.Env(container, "Listen__Address") != "0.0.0.0")
            {
                errors.Add($"{where}: Listen__Address must be 0.0.0.0, or the service listens on loopback only");
            }

            var declared = container.Ports!.Select(p => p.ContainerPort).Order().ToList();
            var configured = Ports.Configured(container).Order().ToList();
            if (configured.Count == 0 || !declared.SequenceEqual(configured))
            {
                errors.Add($"{where}: containerPorts [{string.Join(", ", declared)}] differ from Listen__Port/Listen__AdminPort/Listen__MetricsPort [{string.Join(", ", configured)}]");
            }
        }

        return errors;
    }

    /// <summary>
    /// The harness command's ports are its arguments: the coordinator's --listen, which must be 0.0.0.0:PORT, and the
    /// --metrics-port of the runner, an agent or the coordinator (every interface); the container declares exactly those.
    /// </summary>
    private static IEnumerable<string> RunnerPorts(string where, V1Container container)
    {
        var args = ContainerArgs.Expanded(container);
        var expected = new List<int>();
        if (args[0] == "coordinate")
        {
            var listen = ContainerArgs.Value(args, "--listen");
            if (listen is not null && listen.StartsWith("0.0.0.0:", StringComparison.Ordinal) && int.TryParse(listen["0.0.0.0:".Length..], CultureInfo.InvariantCulture, out var port))
            {
                expected.Add(port);
            }
            else
            {
                yield return $"{where}: --listen {listen ?? "(default 127.0.0.1:7070)"} must be 0.0.0.0:PORT with PORT one of its containerPorts";
            }
        }

        if (ContainerArgs.Value(args, "--metrics-port") is { } metrics)
        {
            expected.Add(int.TryParse(metrics, CultureInfo.InvariantCulture, out var port) ? port : -1);
        }

        var declared = container.Ports!.Select(p => p.ContainerPort).Order().ToList();
        if (!declared.SequenceEqual(expected.Order()))
        {
            yield return $"{where}: containerPorts [{string.Join(", ", declared)}] differ from the ports its arguments open (--listen, --metrics-port) [{string.Join(", ", expected.Order())}]";
        }
    }

    /// <summary>A pod labelled with a mode runs that mode, and the mode is one the services know.</summary>
    public static IReadOnlyList<string> Modes(Workload workload)
    {
        if (workload.Template.Metadata?.Labels.Value(ModeLabel) is not { } mode)
        {
            return [];
        }

        var errors = new List<string>();
        if (!SchedulingModes.Names.Contains(mode, StringComparer.OrdinalIgnoreCase))
        {
            errors.Add($"{workload.Id}: {ModeLabel} '{mode}' is not a mode; valid: {string.Join(", ", SchedulingModes.Names)}");
        }

        foreach (var container in workload.Pod.Containers.Where(c => Ports.Env(c, "Scheduling__Mode") != mode))
        {
            errors.Add($"{workload.Id} container {container.Name}: Scheduling__Mode '{Ports.Env(container, "Scheduling__Mode")}' differs from its {ModeLabel} label '{mode}'");
        }

        return errors;
    }

    /// <summary>A service of a mode serves /metrics and /healthz on Listen__MetricsPort, from a thread outside the
    /// ThreadPool (the Kestrel ones starve with the pool under threadpool mode's blocking CallThirdParty, and the
    /// charts and probes with them), and its Service exposes that port to the runner.</summary>
    public static IReadOnlyList<string> DedicatedMetrics(Manifests manifests, Workload workload)
    {
        if (workload.Template.Metadata?.Labels.Value(ModeLabel) is null)
        {
            return [];
        }

        var errors = new List<string>();
        foreach (var container in workload.Pod.Containers)
        {
            var where = $"{workload.Id} container {container.Name}";
            if (Ports.Env(container, Ports.MetricsPort) is not { } port)
            {
                errors.Add($"{where}: no {Ports.MetricsPort}; under a starved ThreadPool its /metrics would go silent");
                continue;
            }

            var exposed = manifests.Services.Where(s => manifests.Selected(s.Spec.Selector).Contains(workload))
                .SelectMany(s => s.Spec.Ports)
                .Any(p => Ports.Resolve(container, p.TargetPort?.Value ?? p.Port.ToString(CultureInfo.InvariantCulture))?.ContainerPort.ToString(CultureInfo.InvariantCulture) == port);
            if (!exposed)
            {
                errors.Add($"{where}: no Service port reaches its {Ports.MetricsPort} {port}; the runner could not scrape it");
            }
        }

        return errors;
    }

    public static IReadOnlyList<string> Labels(Workload workload) =>
    [
        .. RecommendedLabels
            .Where(l => workload.Metadata.Labels?.ContainsKey(l) != true || workload.Template.Metadata?.Labels?.ContainsKey(l) != true)
            .Select(l => $"{workload.Id}: label {l} missing on the object or its pod template"),
        .. workload.Metadata.Labels.Value(PartOf) is "harness" ? [] : new[] { $"{workload.Id}: {PartOf} must be harness" },
    ];

    /// <summary>A Service selects exactly one Deployment (two would mix modes in one measurement), and each of its
    /// ports reaches a port that Deployment's container declares, by the same number.</summary>
    public static IReadOnlyList<string> Service(Manifests manifests, V1Service service)
    {
        var id = $"Service/{service.Metadata.Name}";
        var selected = manifests.Selected(service.Spec.Selector);
        if (selected.Count != 1)
        {
            return [$"{id}: its selector matches {selected.Count} pod templates ({string.Join(", ", selected.Select(w => w.Id))}); it must match exactly one"];
        }

        var errors = new List<string>();
        foreach (var port in service.Spec.Ports)
        {
            var target = port.TargetPort?.Value ?? port.Port.ToString(CultureInfo.InvariantCulture);
            var resolved = selected[0].Pod.Containers.Select(c => Ports.Resolve(c, target)).OfType<V1ContainerPort>().FirstOrDefault();
            if (resolved is null)
            {
                errors.Add($"{id}: port {port.Name} targets '{target}', which {selected[0].Id} does not declare");
            }
            else if (resolved.ContainerPort != port.Port)
            {
                errors.Add($"{id}: port {port.Name} is {port.Port} but reaches container port {resolved.ContainerPort}; keep them equal");
            }
        }

        return errors;
    }

    /// <summary>Every Job ends on its own: no retries of a measurement, a deadline, pods that do not restart.</summary>
    public static IReadOnlyList<string> Job(V1Job job)
    {
        var errors = new List<string>();
        var id = $"Job/{job.Metadata.Name}";
        if (job.Spec.BackoffLimit is null || job.Spec.ActiveDeadlineSeconds is null)
        {
            errors.Add($"{id}: backoffLimit and activeDeadlineSeconds must be set");
        }

        if (job.Spec.Template.Spec.RestartPolicy != "Never")
        {
            errors.Add($"{id}: restartPolicy must be Never (a restarted runner is a different run)");
        }

        if (job.Spec.CompletionMode == "Indexed" && (job.Spec.Completions is null || job.Spec.Completions != job.Spec.Parallelism))
        {
            errors.Add($"{id}: an Indexed Job of agents needs completions = parallelism (all agents at once); got {job.Spec.Completions} and {job.Spec.Parallelism}");
        }

        if (job.Metadata.Labels.Value("harness/stage") is not ("load" or "collect"))
        {
            errors.Add($"{id}: label harness/stage must be load or collect (scripts/k8s-run.sh runs them in that order)");
        }

        return errors;
    }
}
