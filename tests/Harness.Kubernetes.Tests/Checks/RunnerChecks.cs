using System.CommandLine;
using Harness.Kubernetes.Tests.Tooling;
using Harness.LoadTests.Commands;
using Harness.LoadTests.Common;
using Harness.LoadTests.Running;
using Harness.LoadTests.Targets;
using k8s.Models;

namespace Harness.Kubernetes.Tests.Checks;

/// <summary>One `harness run` container (the runner or an agent), its arguments bound by the runner's own parser.</summary>
internal sealed record RunInvocation(Workload Workload, V1Container Container, RunOptions? Options, string? Agent, string? Coordinator, IReadOnlyList<string> Errors)
{
    /// <summary>Series the run records one after another: each target's stack × each operation.</summary>
    public int Series => Options is null ? 0 : Options.Targets.Count(t => Options.Stacks.Contains(t.Stack)) * Options.Operations.Count;

    public TimeSpan LoadLength => Options is null ? TimeSpan.Zero : Options.Profile.Duration * Series;
}

/// <summary>
/// The runner's side: every `harness run` parses with the real `run` options, loads the profile mounted from its
/// ConfigMap, writes to a volume, and names targets that are Services of the stated stack and mode, running; the
/// wait-for-services list is exactly the targets' health ports and their stub; the Job's deadline fits the load.
/// </summary>
internal static class RunnerChecks
{
    /// <summary>Slack a load Job's deadline must leave beyond the load and the wait for services (warm-up, report).</summary>
    public static readonly TimeSpan MinDeadlineSlack = TimeSpan.FromMinutes(5);

    /// <summary>Most a deadline may exceed the load by: a hung run should not hold a cluster's CPUs for long.</summary>
    public static readonly TimeSpan MaxDeadlineSlack = TimeSpan.FromHours(2);

    public static IReadOnlyList<string> All(Manifests manifests) =>
        [.. Runs(manifests).SelectMany(r => r.Errors), .. Coordinators(manifests)];

    public static IReadOnlyList<RunInvocation> Runs(Manifests manifests) =>
    [
        .. from w in manifests.Workloads
           from c in w.Pod.Containers
           where c.Args is ["run", ..]
           select Bind(manifests, w, c),
    ];

    private static RunInvocation Bind(Manifests manifests, Workload workload, V1Container container)
    {
        var where = $"{workload.Id} container {container.Name}";
        var errors = new List<string>();
        var args = ContainerArgs.Expanded(container).Skip(1).ToList();
        // --agent, --coordinator and --agent-timeout make the run an agent of a distributed one; the rest are `harness run` options.
        var agent = ContainerArgs.Remove(args, "--agent");
        var coordinator = ContainerArgs.Remove(args, "--coordinator");
        ContainerArgs.Remove(args, "--agent-timeout");
        var profileFile = Path.Combine(Path.GetTempPath(), $"harness-k8s-profile-{Guid.NewGuid():N}.json");
        try
        {
            if (ContainerArgs.Remove(args, "--profile") is { } profile)
            {
                if (MountedConfigMapFile(manifests, workload, container, profile) is { } json)
                {
                    File.WriteAllText(profileFile, json);
                    args.Add($"--profile={profileFile}");
                }
                else
                {
                    errors.Add($"{where}: --profile {profile} is not a key of a ConfigMap mounted in the container");
                }
            }

            var options = new RunCommandOptions();
            var command = new Command("run");
            options.AddTo(command);
            var parse = command.Parse(args);
            if (parse.Errors.Count > 0)
            {
                errors.AddRange(parse.Errors.Select(e => $"{where}: {e.Message}"));
                return new RunInvocation(workload, container, null, agent, coordinator, errors);
            }

            RunOptions run;
            try
            {
                run = options.Bind(parse, string.Join(' ', args));
            }
            catch (UsageException ex)
            {
                errors.Add($"{where}: {ex.Message}");
                return new RunInvocation(workload, container, null, agent, coordinator, errors);
            }

            var invocation = new RunInvocation(workload, container, run, agent, coordinator, errors);
            // An agent's run folder travels to the coordinator; only a run that keeps its own needs a claim.
            errors.AddRange(agent is null ? Output(workload, container, run.OutputDirectory) : []);
            errors.AddRange(run.Targets.Count == 0 ? [$"{where}: no --target; in a cluster the runner must load the Services"] : []);
            errors.AddRange(run.Targets.SelectMany(t => Target(manifests, where, t)));
            errors.AddRange(WaitList(manifests, workload, run.Targets));
            errors.AddRange(Deadline(manifests, invocation));
            return invocation;
        }
        finally
        {
            File.Delete(profileFile);
        }
    }

    private static string? MountedConfigMapFile(Manifests manifests, Workload workload, V1Container container, string path)
    {
        var mount = container.VolumeMounts?.FirstOrDefault(m => path.StartsWith(m.MountPath.TrimEnd('/') + "/", StringComparison.Ordinal));
        var configMap = workload.Pod.Volumes?.FirstOrDefault(v => v.Name == mount?.Name)?.ConfigMap?.Name;
        var key = mount is null ? null : path[(mount.MountPath.TrimEnd('/').Length + 1)..];
        return manifests.ConfigMaps.FirstOrDefault(c => c.Metadata.Name == configMap)?.Data.Value(key ?? "");
    }

    /// <summary>The run folder must outlive the pod: a writable PersistentVolumeClaim mount.</summary>
    public static IReadOnlyList<string> Output(Workload workload, V1Container container, string directory)
    {
        var mount = container.VolumeMounts?.FirstOrDefault(m => directory == m.MountPath || directory.StartsWith(m.MountPath.TrimEnd('/') + "/", StringComparison.Ordinal));
        var volume = workload.Pod.Volumes?.FirstOrDefault(v => v.Name == mount?.Name);
        return volume?.PersistentVolumeClaim is null || mount!.ReadOnlyProperty == true
            ? [$"{workload.Id} container {container.Name}: --output {directory} is not on a writable PersistentVolumeClaim mount"]
            : [];
    }

    /// <summary>The target's host is a Service with that port, reaching the one running Deployment of that stack and
    /// mode on its service port; its metrics address reaches that Deployment's Listen__MetricsPort.</summary>
    public static IReadOnlyList<string> Target(Manifests manifests, string where, ServiceTarget target)
    {
        var errors = new List<string>();
        var what = $"{where}: --target {target.Stack}={target.Address} (mode {target.Mode})";
        var (workload, container, port) = Reach(manifests, target.ServiceAddress);
        if (workload is null || container is null)
        {
            return [$"{what} is not a Service port of this render that reaches a Deployment"];
        }

        if (workload.Template.Metadata.Labels.Value("app.kubernetes.io/name") != target.Stack)
        {
            errors.Add($"{what} reaches {workload.Id}, which is not the {target.Stack} service");
        }

        if (workload.Template.Metadata.Labels.Value(StackChecks.ModeLabel) != target.Mode)
        {
            errors.Add($"{what} reaches {workload.Id}, labelled mode '{workload.Template.Metadata.Labels.Value(StackChecks.ModeLabel)}': the report would misname it");
        }

        if (workload.Replicas is null or < 1)
        {
            errors.Add($"{what} reaches {workload.Id}, which has no replica");
        }

        if (port != Ports.Env(container, Ports.ListenPort))
        {
            errors.Add($"{what} reaches container port {port}, not its Listen__Port {Ports.Env(container, Ports.ListenPort)}");
        }

        var (metricsWorkload, _, metricsPort) = Reach(manifests, target.MetricsAddress!);
        var expected = Ports.Env(container, Ports.MetricsPort);
        if (metricsWorkload != workload || metricsPort is null || metricsPort != expected)
        {
            errors.Add($"{what}: metrics at {target.MetricsAddress} reach {metricsWorkload?.Id ?? "nothing"} port {metricsPort ?? "none"}, not {workload.Id}'s dedicated /metrics port {Ports.MetricsPort} {expected ?? "(unset)"}");
        }

        return errors;
    }

    /// <summary>The Deployment, container and container port a http://service:port address reaches.</summary>
    public static (Workload? Workload, V1Container? Container, string? Port) Reach(Manifests manifests, Uri address)
    {
        var service = manifests.Services.FirstOrDefault(s => s.Metadata.Name == address.Host);
        var servicePort = service?.Spec.Ports.FirstOrDefault(p => p.Port == address.Port);
        var selected = service is null ? [] : manifests.Selected(service.Spec.Selector);
        if (servicePort is null || selected.Count != 1)
        {
            return (null, null, null);
        }

        var target = servicePort.TargetPort?.Value ?? servicePort.Port.ToString(System.Globalization.CultureInfo.InvariantCulture);
        foreach (var container in selected[0].Pod.Containers)
        {
            if (Ports.Resolve(container, target) is { } resolved)
            {
                return (selected[0], container, resolved.ContainerPort.ToString(System.Globalization.CultureInfo.InvariantCulture));
            }
        }

        return (selected[0], null, null);
    }

    /// <summary>The init container waits for exactly what the run needs: each target's /healthz port and the stubs
    /// those services call. A missing one starts the load too early; an extra one waits for a service never started.</summary>
    public static IReadOnlyList<string> WaitList(Manifests manifests, Workload workload, IReadOnlyList<ServiceTarget> targets)
    {
        var wait = workload.Pod.InitContainers?.FirstOrDefault(c => c.Name == "wait-for-services");
        if (wait is null)
        {
            return [$"{workload.Id}: no wait-for-services init container; the load would start before the services"];
        }

        var expected = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var target in targets)
        {
            // Kestrel's /healthz port: before the load the services are idle, so it answers at once, and it shows that
            // the port the load will use is up. Service ports equal the container ports they reach (StackChecks.Service).
            var (_, container, _) = Reach(manifests, target.ServiceAddress);
            if (container is null)
            {
                continue;
            }

            expected.Add($"{target.ServiceAddress.Host}:{Ports.Health(container)}");
            if (Ports.Env(container, "ThirdParty__BaseAddress") is { } stub && Uri.TryCreate(stub, UriKind.Absolute, out var stubUri))
            {
                expected.Add($"{stubUri.Host}:{stubUri.Port}");
            }
        }

        var actual = new SortedSet<string>(ContainerArgs.Expanded(wait), StringComparer.Ordinal);
        return actual.SetEquals(expected)
            ? []
            : [$"{workload.Id}: wait-for-services waits for [{string.Join(", ", actual)}]; the run needs [{string.Join(", ", expected)}]"];
    }

    /// <summary>A load Job's activeDeadlineSeconds covers the load (series × the stretched profile), the wait for the
    /// services and some slack, and not much more.</summary>
    public static IReadOnlyList<string> Deadline(Manifests manifests, RunInvocation run)
    {
        var job = manifests.Jobs.FirstOrDefault(j => j.Metadata.Name == run.Workload.Name && run.Workload.Kind == "Job");
        if (job?.Spec.ActiveDeadlineSeconds is not { } seconds)
        {
            return [$"{run.Workload.Id}: a load Job needs activeDeadlineSeconds"];
        }

        var waitSeconds = run.Workload.Pod.InitContainers?.FirstOrDefault(c => c.Name == "wait-for-services") is { } wait
            && int.TryParse(Ports.Env(wait, "WAIT_SECONDS"), out var w) ? w : 300;
        var deadline = TimeSpan.FromSeconds(seconds);
        var least = run.LoadLength + TimeSpan.FromSeconds(waitSeconds) + MinDeadlineSlack;
        var most = run.LoadLength + MaxDeadlineSlack;
        return deadline < least || deadline > most
            ? [$"{run.Workload.Id}: activeDeadlineSeconds {seconds} does not fit a load of {run.LoadLength} ({run.Series} series × {run.Options!.Profile.Duration}): it must be between {least.TotalSeconds:0} and {most.TotalSeconds:0}"]
            : [];
    }

    /// <summary>
    /// Every agent names a coordinator that is there: a Service port reaching a `harness coordinate` container that
    /// listens on it, waits for as many agents as the agents are, and writes its run folder to a writable claim.
    /// </summary>
    private static IEnumerable<string> Coordinators(Manifests manifests)
    {
        var coordinators = (from w in manifests.Workloads
                            from c in w.Pod.Containers
                            where c.Args is ["coordinate", ..]
                            select (Workload: w, Container: c, Args: ContainerArgs.Expanded(c).ToList())).ToList();
        foreach (var (workload, container, args) in coordinators)
        {
            foreach (var error in Output(workload, container, ContainerArgs.Value(args, "--output") ?? ""))
            {
                yield return error;
            }
        }

        foreach (var agent in Runs(manifests).Where(r => r.Agent is not null))
        {
            var where = $"{agent.Workload.Id} container {agent.Container.Name}";
            if (!Uri.TryCreate(agent.Coordinator, UriKind.Absolute, out var address))
            {
                yield return $"{where}: --agent without a --coordinator URL";
                continue;
            }

            var (workload, container, port) = Reach(manifests, address);
            var coordinator = coordinators.FirstOrDefault(c => c.Workload == workload && c.Container == container);
            if (coordinator.Container is null)
            {
                yield return $"{where}: --coordinator {address} is not a Service port reaching a `harness coordinate` container";
                continue;
            }

            var listen = ContainerArgs.Value(coordinator.Args, "--listen") ?? "127.0.0.1:7070";
            if (!listen.StartsWith("0.0.0.0:", StringComparison.Ordinal) || listen[(listen.IndexOf(':', StringComparison.Ordinal) + 1)..] != port)
            {
                yield return $"{where}: --coordinator {address} reaches container port {port}, but {coordinator.Workload.Id} listens on {listen} (it must listen on 0.0.0.0:{port})";
            }

            var agents = ContainerArgs.Value(coordinator.Args, "--agents");
            var count = agent.Agent!.Split('/')[^1];
            if (agents != count)
            {
                yield return $"{where}: one of {count} agents, but {coordinator.Workload.Id} waits for --agents {agents}";
            }
        }
    }
}
