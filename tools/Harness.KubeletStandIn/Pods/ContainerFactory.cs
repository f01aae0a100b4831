using System.Globalization;
using Docker.DotNet.Models;
using k8s.Models;

namespace Harness.KubeletStandIn.Pods;

/// <summary>
/// A container of a pod as Docker's create parameters, mapped the way the kubelet and a CRI runtime would:
/// <c>command</c> → Entrypoint (the image's CMD then ignored), <c>args</c> → Cmd, both $(VAR)-expanded with the
/// container's environment; runAsUser/runAsGroup → "uid:gid"; fsGroup and supplementalGroups → extra groups;
/// readOnlyRootFilesystem; capabilities; allowPrivilegeEscalation: false → no-new-privileges; limits.cpu →
/// NanoCPUs (a CFS quota), limits.memory → Memory (no swap), requests.cpu → cpu.shares; the pod's network
/// namespace is the sandbox's (<c>container:ID</c>), so a pod's containers share one IP and localhost.
/// </summary>
internal static class ContainerFactory
{
    public static CreateContainerParameters Build(
        string name, V1Container container, V1PodSpec pod, string imageUser, IReadOnlyList<KeyValuePair<string, string>> env,
        IList<Mount> mounts, string sandboxId, IDictionary<string, string> labels)
    {
        var security = EffectiveSecurity.Merge(pod.SecurityContext, container.SecurityContext);
        if (security.NonRootViolation(imageUser) is { } violation)
        {
            throw new PodConfigException($"container {container.Name}: {violation}");
        }

        var variables = env.ToDictionary(p => p.Key, p => p.Value, StringComparer.Ordinal);
        var (entrypoint, cmd) = Command(container, variables);
        var memory = Quantities.MemoryBytes(container.Resources);
        return new CreateContainerParameters
        {
            Name = name,
            Image = container.Image,
            Entrypoint = entrypoint,
            Cmd = cmd,
            Env = [.. env.Select(p => $"{p.Key}={p.Value}")],
            User = security.DockerUser(imageUser),
            WorkingDir = container.WorkingDir,
            Labels = labels,
            StopTimeout = TimeSpan.FromSeconds(pod.TerminationGracePeriodSeconds ?? 30),
            HostConfig = new HostConfig
            {
                NetworkMode = $"container:{sandboxId}",
                Mounts = mounts,
                NanoCPUs = Quantities.NanoCpus(container.Resources) ?? 0,
                CPUShares = Quantities.CpuShares(container.Resources) ?? 0,
                Memory = memory ?? 0,
                MemorySwap = memory ?? 0,
                ReadonlyRootfs = security.ReadOnlyRootFilesystem,
                Privileged = security.Privileged,
                CapAdd = [.. security.CapAdd],
                CapDrop = [.. security.CapDrop],
                SecurityOpt = [.. security.SecurityOptions()],
                GroupAdd = [.. security.SupplementalGroups.Select(g => g.ToString(CultureInfo.InvariantCulture))],
            },
        };
    }

    /// <summary>
    /// Entrypoint and Cmd. With <c>command</c>, Docker ignores the image's CMD when Cmd is empty, as Kubernetes does;
    /// without it, the image's ENTRYPOINT runs with <c>args</c> (or the image's CMD when there are none).
    /// </summary>
    public static (IList<string>? Entrypoint, IList<string>? Cmd) Command(V1Container container, IReadOnlyDictionary<string, string> variables)
    {
        IList<string>? Expand(IList<string>? values) => values is null ? null : [.. values.Select(v => Expansion.Expand(v, variables))];
        var entrypoint = Expand(container.Command);
        var cmd = Expand(container.Args);
        return (entrypoint is { Count: > 0 } ? entrypoint : null, cmd is { Count: > 0 } ? cmd : entrypoint is { Count: > 0 } ? [] : null);
    }

    /// <summary>The pod's network sandbox: it holds the pod's IP, hostname and Service aliases, and keeps its emptyDir volumes mounted.</summary>
    public static CreateContainerParameters Sandbox(
        string name, string image, string hostname, string network, IList<string> aliases, IList<Mount> mounts, IDictionary<string, string> labels) => new()
        {
            Name = name,
            Image = image,
            // It only has to stay alive: the image's sleep, as nobody, with nothing to spare.
            Entrypoint = ["sleep", "infinity"],
            Cmd = [],
            User = "65534:65534",
            Hostname = hostname,
            Labels = labels,
            HostConfig = new HostConfig
            {
                NetworkMode = network,
                Mounts = mounts,
                CapDrop = ["ALL"],
                SecurityOpt = ["no-new-privileges"],
                Memory = 32 * 1024 * 1024,
            },
            NetworkingConfig = new NetworkingConfig
            {
                EndpointsConfig = new Dictionary<string, EndpointSettings> { [network] = new() { Aliases = aliases } },
            },
        };

    /// <summary>The Service names a pod answers to on its namespace's network: the short name and the cluster forms of it.</summary>
    public static IList<string> Aliases(IEnumerable<string> services, string ns) =>
        [.. services.SelectMany(s => new[] { s, $"{s}.{ns}", $"{s}.{ns}.svc", $"{s}.{ns}.svc.cluster.local" }).Distinct(StringComparer.Ordinal)];
}
