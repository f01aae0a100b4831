using System.Collections.Concurrent;
using System.Globalization;
using Docker.DotNet;
using Docker.DotNet.Models;
using Harness.KubeletStandIn.Manifests;
using Harness.KubeletStandIn.Probes;
using k8s.Models;

namespace Harness.KubeletStandIn.Pods;

internal enum PodPhase
{
    Pending,
    Running,
    Succeeded,
    Failed,
}

/// <summary>One container the pod created, for its logs.</summary>
internal sealed record PodContainer(string Name, string Id, bool Init);

/// <summary>
/// One pod, run as the kubelet runs it: a sandbox container holds the pod's IP, hostname and Service aliases on its
/// namespace's network; an fsGroup makes the pod's writable claims group-writable; the init containers run one at a
/// time to completion; then the main containers start together, each with its probes, and are restarted after an
/// exit or a failed liveness/startup probe as <c>restartPolicy</c> says (with the kubelet's back-off: at once, then
/// 10 s, 20 s... up to 5 min). The pod ends Succeeded when every main container exited 0 for good, Failed when one
/// failed for good, and runs until stopped under <c>Always</c>.
/// </summary>
internal sealed class PodRunner(RunContext context, Workload workload, PodIdentity identity)
{
    private static readonly TimeSpan MaxBackOff = TimeSpan.FromMinutes(5);
    private static readonly TimeSpan FsGroupTimeout = TimeSpan.FromMinutes(2);

    private readonly ConcurrentDictionary<string, ContainerProbes> _probes = new(StringComparer.Ordinal);
    private readonly ConcurrentQueue<PodContainer> _containers = new();
    private int _livenessRestarts;
    private int _exitRestarts;

    public string Name => identity.Name;

    public PodIdentity Identity => identity;

    public PodPhase Phase { get; private set; } = PodPhase.Pending;

    /// <summary>Why the pod failed, when it did.</summary>
    public string? Reason { get; private set; }

    public string? PodIp { get; private set; }

    public int LivenessRestarts => Volatile.Read(ref _livenessRestarts);

    public int ExitRestarts => Volatile.Read(ref _exitRestarts);

    public IReadOnlyList<PodContainer> Containers => [.. _containers];

    /// <summary>Running, and every main container started and ready.</summary>
    public bool Ready => Phase == PodPhase.Running && workload.Pod.Containers.All(c => _probes.TryGetValue(c.Name, out var p) && p.Ready);

    private string RestartPolicy => workload.Pod.RestartPolicy ?? "Always";

    /// <summary>Runs the pod until it ends (Succeeded/Failed) or <paramref name="stop"/> is cancelled (its phase stays as it was).</summary>
    public async Task<PodPhase> RunAsync(CancellationToken stop)
    {
        try
        {
            var volumes = await PodVolumes.PrepareAsync(context, identity, workload.Pod, stop);
            var sandbox = await StartSandboxAsync(volumes, stop);
            await FixOwnershipAsync(volumes, stop);
            foreach (var init in workload.Pod.InitContainers ?? [])
            {
                var id = await CreateAsync(init, volumes, sandbox, init: true, stop);
                if (await RunToCompletionAsync(init, id, stop) is { } why)
                {
                    return Fail($"init container {init.Name} {why}");
                }
            }

            var main = new List<(V1Container Spec, string Id)>();
            foreach (var container in workload.Pod.Containers)
            {
                main.Add((container, await CreateAsync(container, volumes, sandbox, init: false, stop)));
            }

            Phase = PodPhase.Running;
            var exits = await Task.WhenAll(main.Select(c => KeepRunningAsync(c.Spec, c.Id, stop)));
            var failed = main.Zip(exits).Where(p => p.Second != 0).Select(p => $"{p.First.Spec.Name} exited {p.Second}").ToList();
            if (failed.Count > 0)
            {
                return Fail(string.Join(", ", failed));
            }

            Phase = PodPhase.Succeeded;
            context.Log.Line($"pod {Name}: Succeeded");
            return Phase;
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            return Phase;
        }
        catch (Exception ex) when (ex is PodConfigException or DockerApiException or IOException)
        {
            return Fail(ex.Message);
        }
    }

    /// <summary>Stops every container of the pod that still runs: SIGTERM, SIGKILL after <paramref name="grace"/>.</summary>
    public Task StopAsync(TimeSpan grace) =>
        Task.WhenAll(Containers.Select(c => context.Docker.StopAsync(c.Id, grace)));

    public string? LatestMainContainerId => Containers.LastOrDefault(c => !c.Init)?.Id;

    private PodPhase Fail(string reason)
    {
        Phase = PodPhase.Failed;
        Reason = reason;
        context.Log.Line($"pod {Name}: Failed: {reason}");
        return Phase;
    }

    private async Task<string> StartSandboxAsync(PodVolumes volumes, CancellationToken stop)
    {
        var network = context.Networks[identity.Namespace];
        var services = context.Manifests.ServicesSelecting(identity.Namespace, identity.Labels).Select(s => s.Metadata.Name);
        var parameters = ContainerFactory.Sandbox(
            $"{context.Docker.RunId}-{Name}", workload.Pod.Containers[0].Image, identity.Hostname, network,
            ContainerFactory.Aliases(services, identity.Namespace), volumes.SandboxMounts, context.Docker.Labels(Name, "sandbox"));
        var id = await context.Docker.CreateContainerAsync(parameters, stop);
        await context.Docker.StartAsync(id, stop);
        PodIp = await context.Docker.IpAddressAsync(id, network, stop) ?? throw new PodConfigException($"the sandbox has no address on {network}");
        return id;
    }

    /// <summary>
    /// fsGroup on a claim: a one-off root container from the pod's image gives the volume's files to the group,
    /// group-writable, directories setgid, as the kubelet's SetVolumeOwnership does; with fsGroupChangePolicy
    /// OnRootMismatch only when the volume's root is not the group's yet. emptyDirs get theirs at creation.
    /// </summary>
    private async Task FixOwnershipAsync(PodVolumes volumes, CancellationToken stop)
    {
        if (workload.Pod.SecurityContext?.FsGroup is not { } group)
        {
            return;
        }

        var policy = workload.Pod.SecurityContext.FsGroupChangePolicy ?? "Always";
        foreach (var volume in volumes.WritableClaimVolumes)
        {
            var id = await context.Docker.CreateContainerAsync(new CreateContainerParameters
            {
                Name = $"{context.Docker.RunId}-{Name}-fsgroup-{Math.Abs(StringComparer.Ordinal.GetHashCode(volume)):x}",
                Image = workload.Pod.Containers[0].Image,
                User = "0:0",
                Entrypoint = ["sh", "-c", """
                    cd /volume || exit 1
                    if [ "$POLICY" = OnRootMismatch ] && [ "$(stat -c %g .)" = "$GROUP" ]; then exit 0; fi
                    chgrp -R "$GROUP" . && chmod -R g+rwX . && find . -type d -exec chmod g+s {} +
                    """],
                Env = [$"GROUP={group.ToString(CultureInfo.InvariantCulture)}", $"POLICY={policy}"],
                Labels = context.Docker.Labels(Name, "fsgroup"),
                HostConfig = new HostConfig { NetworkMode = "none", Mounts = [new Mount { Type = "volume", Source = volume, Target = "/volume" }] },
            }, stop);
            try
            {
                using var bounded = CancellationTokenSource.CreateLinkedTokenSource(stop);
                bounded.CancelAfter(FsGroupTimeout);
                await context.Docker.StartAsync(id, bounded.Token);
                var code = await context.Docker.WaitAsync(id, bounded.Token);
                if (code != 0)
                {
                    throw new PodConfigException($"fsGroup {group}: changing the ownership of volume {volume} failed ({code}); the image needs sh, stat, chgrp, chmod and find");
                }
            }
            finally
            {
                await context.Docker.RemoveContainerAsync(id);
            }
        }
    }

    private async Task<string> CreateAsync(V1Container container, PodVolumes volumes, string sandbox, bool init, CancellationToken stop)
    {
        var image = await context.Docker.ImageAsync(container.Image, stop);
        var env = EnvResolver.Resolve(container, identity.Facts(PodIp, null, workload.Pod.ServiceAccountName), context.Manifests);
        var parameters = ContainerFactory.Build(
            $"{context.Docker.RunId}-{Name}-{container.Name}", container, workload.Pod, image.Config?.User ?? "", env,
            volumes.MountsFor(container), sandbox, context.Docker.Labels(Name, container.Name));
        var id = await context.Docker.CreateContainerAsync(parameters, stop);
        _containers.Enqueue(new PodContainer(container.Name, id, init));
        return id;
    }

    /// <summary>An init container: runs until it exits 0, restarted on failure unless restartPolicy is Never. Null on success, else why it failed.</summary>
    private async Task<string?> RunToCompletionAsync(V1Container container, string id, CancellationToken stop)
    {
        for (var attempt = 1; ; attempt++)
        {
            await context.Docker.StartAsync(id, stop);
            var code = await context.Docker.WaitAsync(id, stop);
            if (code == 0)
            {
                return null;
            }

            if (RestartPolicy == "Never")
            {
                return $"exited {code}";
            }

            Interlocked.Increment(ref _exitRestarts);
            context.Log.Line($"pod {Name}: init container {container.Name} exited {code}; restarting (restart {attempt})");
            await Task.Delay(BackOff(attempt), stop);
        }
    }

    /// <summary>A main container under the restart policy: its final exit code (a probe's kill counts as the exit it caused).</summary>
    private async Task<long> KeepRunningAsync(V1Container container, string id, CancellationToken stop)
    {
        for (var restarts = 0; ; restarts++)
        {
            await context.Docker.StartAsync(id, stop);
            using var probing = CancellationTokenSource.CreateLinkedTokenSource(stop);
            var probes = new ContainerProbes(context.Probes, container, PodIp!, id, m => context.Log.Line($"pod {Name} container {container.Name}: {m}"));
            _probes[container.Name] = probes;
            var probeLoop = probes.RunAsync(probing.Token);
            string? killedBy;
            long code;
            try
            {
                var exit = context.Docker.WaitAsync(id, stop);
                killedBy = await Task.WhenAny(exit, probes.Failure) == probes.Failure ? await probes.Failure : null;
                if (killedBy is not null)
                {
                    context.Log.Line($"pod {Name} container {container.Name}: {killedBy}; killing it (restartPolicy {RestartPolicy})");
                    await context.Docker.StopAsync(id, TimeSpan.FromSeconds(workload.Pod.TerminationGracePeriodSeconds ?? 30));
                }

                code = await exit;
            }
            finally
            {
                // Explicitly: when the run stops, the wait's cancellation can bring us here before the link from
                // the run's token to the probes' fires, and disposing the source would then leave the probes running.
                await probing.CancelAsync();
                await probeLoop;
            }

            var restart = RestartPolicy == "Always" || (RestartPolicy == "OnFailure" && code != 0);
            if (!restart)
            {
                return code;
            }

            if (killedBy is not null)
            {
                Interlocked.Increment(ref _livenessRestarts);
                context.CountLivenessRestart();
            }
            else
            {
                Interlocked.Increment(ref _exitRestarts);
                context.Log.Line($"pod {Name} container {container.Name}: exited {code}; restarting");
            }

            await Task.Delay(BackOff(restarts + 1), stop);
        }
    }

    // The kubelet restarts at once the first time, then backs off 10 s, 20 s, 40 s... up to 5 minutes.
    public static TimeSpan BackOff(int restart) =>
        restart <= 1 ? TimeSpan.Zero : TimeSpan.FromSeconds(Math.Min(MaxBackOff.TotalSeconds, 10 * Math.Pow(2, restart - 2)));
}
