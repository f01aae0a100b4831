using System.Globalization;
using System.Text;
using Docker.DotNet.Models;
using Harness.KubeletStandIn.Manifests;
using k8s.Models;

namespace Harness.KubeletStandIn.Pods;

/// <summary>
/// A pod's volumes as Docker mounts:
/// <list type="bullet">
/// <item><c>emptyDir</c>: a tmpfs-backed Docker volume of the pod's own (size = <c>sizeLimit</c>, mode 0777, group
/// fsGroup with setgid when one is set), mounted by the pod's sandbox too so it lives as long as the pod, across its
/// containers' restarts; its contents count against the host's memory, not the container's limit.</item>
/// <item><c>persistentVolumeClaim</c>: the run's named Docker volume for the claim, shared by every pod that mounts
/// it (read-only when the volume or the mount says so).</item>
/// <item><c>configMap</c>: the ConfigMap's keys (or its <c>items</c>) written to a temporary folder with
/// <c>defaultMode</c>/<c>mode</c> (0644 by default: readable by any user) and bind-mounted read-only.</item>
/// </list>
/// Anything else (secret, hostPath, projected...) is refused before the run starts.
/// </summary>
internal sealed class PodVolumes
{
    public const string SandboxMountRoot = "/.kubelet-stand-in/volumes";

    private readonly Dictionary<string, Mount> _sources = new(StringComparer.Ordinal);

    /// <summary>The claims this pod mounts writable: the ones an fsGroup must make writable.</summary>
    public List<string> WritableClaimVolumes { get; } = [];

    /// <summary>The sandbox mounts every emptyDir, so a tmpfs volume stays mounted while no container of the pod runs.</summary>
    public IList<Mount> SandboxMounts =>
        [.. _sources.Where(s => s.Value.Type == "volume" && s.Value.Source.Contains("-empty-", StringComparison.Ordinal))
            .Select(s => new Mount { Type = "volume", Source = s.Value.Source, Target = $"{SandboxMountRoot}/{s.Key}", VolumeOptions = new VolumeOptions { NoCopy = true } })];

    /// <summary>What the stand-in cannot mount as written, one line per volume or mount.</summary>
    public static IEnumerable<string> Unsupported(Workload workload)
    {
        var volumes = (workload.Pod.Volumes ?? []).ToDictionary(v => v.Name, StringComparer.Ordinal);
        foreach (var volume in volumes.Values.Where(v => v.EmptyDir is null && v.ConfigMap is null && v.PersistentVolumeClaim is null))
        {
            yield return $"{workload.Id}: volume {volume.Name}: only emptyDir, configMap and persistentVolumeClaim volumes are emulated";
        }

        foreach (var container in workload.AllContainers)
        {
            foreach (var mount in container.VolumeMounts ?? [])
            {
                if (!volumes.TryGetValue(mount.Name, out var volume))
                {
                    yield return $"{workload.Id} container {container.Name}: volumeMount {mount.Name} names no volume of the pod";
                }
                else if (!string.IsNullOrEmpty(mount.SubPath) && volume.ConfigMap is null)
                {
                    yield return $"{workload.Id} container {container.Name}: volumeMount {mount.Name}: subPath is emulated for configMap volumes only";
                }
                else if (!string.IsNullOrEmpty(mount.SubPathExpr))
                {
                    yield return $"{workload.Id} container {container.Name}: volumeMount {mount.Name}: subPathExpr is not emulated";
                }
            }
        }
    }

    public static async Task<PodVolumes> PrepareAsync(RunContext context, PodIdentity pod, V1PodSpec spec, CancellationToken cancellationToken)
    {
        var volumes = new PodVolumes();
        foreach (var volume in spec.Volumes ?? [])
        {
            if (volume.EmptyDir is { } empty)
            {
                var name = $"{context.Docker.RunId}-{pod.Name}-empty-{volume.Name}";
                var options = new StringBuilder(spec.SecurityContext?.FsGroup is { } g ? string.Create(CultureInfo.InvariantCulture, $"mode=2777,gid={g}") : "mode=0777");
                if (empty.SizeLimit?.ToDecimal() is { } size and > 0)
                {
                    options.Append(CultureInfo.InvariantCulture, $",size={(long)size}");
                }

                await context.Docker.CreateVolumeAsync(
                    name, new Dictionary<string, string> { ["type"] = "tmpfs", ["device"] = "tmpfs", ["o"] = options.ToString() }, context.Docker.Labels(pod.Name), cancellationToken);
                volumes._sources[volume.Name] = new Mount { Type = "volume", Source = name, VolumeOptions = new VolumeOptions { NoCopy = true } };
            }
            else if (volume.PersistentVolumeClaim is { } claim)
            {
                var name = context.ClaimVolumes[RunContext.ClaimKey(pod.Namespace, claim.ClaimName)];
                volumes._sources[volume.Name] = new Mount { Type = "volume", Source = name, ReadOnly = claim.ReadOnlyProperty == true, VolumeOptions = new VolumeOptions { NoCopy = true } };
            }
            else if (volume.ConfigMap is { } source)
            {
                var directory = Path.Combine(context.TemporaryDirectory, pod.Name, volume.Name);
                WriteConfigMap(context.Manifests.ConfigMap(pod.Namespace, source.Name), source, directory);
                volumes._sources[volume.Name] = new Mount { Type = "bind", Source = directory, ReadOnly = true };
            }
        }

        foreach (var mount in (spec.InitContainers ?? []).Concat(spec.Containers).SelectMany(c => c.VolumeMounts ?? []))
        {
            var source = volumes._sources[mount.Name];
            if (source.Type == "volume" && !source.ReadOnly && mount.ReadOnlyProperty != true && !source.Source.Contains("-empty-", StringComparison.Ordinal)
                && !volumes.WritableClaimVolumes.Contains(source.Source))
            {
                volumes.WritableClaimVolumes.Add(source.Source);
            }
        }

        return volumes;
    }

    public IList<Mount> MountsFor(V1Container container) =>
        [.. (container.VolumeMounts ?? []).Select(m =>
        {
            var source = _sources[m.Name];
            var path = string.IsNullOrEmpty(m.SubPath) ? source.Source : Path.Combine(source.Source, m.SubPath);
            return new Mount
            {
                Type = source.Type,
                Source = path,
                Target = m.MountPath,
                ReadOnly = source.ReadOnly || m.ReadOnlyProperty == true,
                VolumeOptions = source.VolumeOptions,
            };
        })];

    /// <summary>Writes a ConfigMap volume's files: every key, or only <c>items</c> (key → path, mode), as the kubelet's atomic writer lays them out (without its ..data link).</summary>
    public static void WriteConfigMap(V1ConfigMap? map, V1ConfigMapVolumeSource source, string directory)
    {
        if (map is null && source.Optional != true)
        {
            throw new PodConfigException($"configMap \"{source.Name}\" not found");
        }

        Directory.CreateDirectory(directory);
        Chmod(directory, "755");
        var contents = new Dictionary<string, byte[]>(StringComparer.Ordinal);
        foreach (var (key, value) in map?.Data ?? new Dictionary<string, string>())
        {
            contents[key] = Encoding.UTF8.GetBytes(value);
        }

        foreach (var (key, value) in map?.BinaryData ?? new Dictionary<string, byte[]>())
        {
            contents[key] = value;
        }

        var defaultMode = source.DefaultMode ?? Convert.ToInt32("644", 8);
        var items = source.Items is { Count: > 0 } listed
            ? listed.Select(i => (i.Key, i.Path, Mode: i.Mode ?? defaultMode))
            : contents.Keys.Select(k => (Key: k, Path: k, Mode: defaultMode));
        foreach (var (key, relative, mode) in items)
        {
            if (!contents.TryGetValue(key, out var bytes))
            {
                if (source.Optional == true)
                {
                    continue;
                }

                throw new PodConfigException($"configMap \"{source.Name}\" has no key \"{key}\"");
            }

            if (relative.Split('/').Contains("..") || Path.IsPathRooted(relative))
            {
                throw new PodConfigException($"configMap \"{source.Name}\" item path \"{relative}\" must be relative and stay inside the volume");
            }

            var path = Path.Combine(directory, relative);
            var parent = Path.GetDirectoryName(path)!;
            Directory.CreateDirectory(parent);
            Chmod(parent, "755");
            File.WriteAllBytes(path, bytes);
            Chmod(path, Convert.ToString(mode & Convert.ToInt32("777", 8), 8));
        }
    }

    // Unix file modes; the stand-in runs where Docker's bridge networks are reachable from the host, i.e. on Linux.
    private static void Chmod(string path, string octal)
    {
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(path, (UnixFileMode)Convert.ToInt32(octal, 8));
        }
    }
}
