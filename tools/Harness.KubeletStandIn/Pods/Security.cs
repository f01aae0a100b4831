using System.Globalization;
using k8s.Models;

namespace Harness.KubeletStandIn.Pods;

/// <summary>A container's effective security settings: the container's own over the pod's, as the kubelet merges them.</summary>
internal sealed record EffectiveSecurity(
    long? RunAsUser, long? RunAsGroup, bool RunAsNonRoot, bool ReadOnlyRootFilesystem, bool NoNewPrivileges, bool Privileged,
    IReadOnlyList<string> CapAdd, IReadOnlyList<string> CapDrop, string? SeccompType, IReadOnlyList<long> SupplementalGroups)
{
    public static EffectiveSecurity Merge(V1PodSecurityContext? pod, V1SecurityContext? container)
    {
        var groups = new List<long>();
        // fsGroup joins the supplementary groups, so the container can write volumes whose group it owns.
        if (pod?.FsGroup is { } fsGroup)
        {
            groups.Add(fsGroup);
        }

        groups.AddRange((pod?.SupplementalGroups ?? []).OfType<long>());
        var seccomp = container?.SeccompProfile ?? pod?.SeccompProfile;
        return new EffectiveSecurity(
            container?.RunAsUser ?? pod?.RunAsUser,
            container?.RunAsGroup ?? pod?.RunAsGroup,
            (container?.RunAsNonRoot ?? pod?.RunAsNonRoot) == true,
            container?.ReadOnlyRootFilesystem == true,
            container?.AllowPrivilegeEscalation == false,
            container?.Privileged == true,
            [.. container?.Capabilities?.Add ?? []],
            [.. container?.Capabilities?.Drop ?? []],
            seccomp?.Type,
            [.. groups.Distinct()]);
    }

    /// <summary>
    /// Docker's user: "uid:gid" from runAsUser/runAsGroup; the image's user when runAsUser is not set (with runAsGroup
    /// as its group when that is); null (the image's USER) when neither is set.
    /// </summary>
    public string? DockerUser(string imageUser)
    {
        var image = imageUser.Split(':')[0];
        return (RunAsUser, RunAsGroup) switch
        {
            ({ } u, { } g) => string.Create(CultureInfo.InvariantCulture, $"{u}:{g}"),
            ({ } u, null) => u.ToString(CultureInfo.InvariantCulture),
            (null, { } g) => string.Create(CultureInfo.InvariantCulture, $"{(image.Length == 0 ? "0" : image)}:{g}"),
            _ => null,
        };
    }

    /// <summary>
    /// The kubelet's runAsNonRoot check: a root runAsUser, or, without one, an image whose USER is root, empty, or a
    /// name (which cannot be verified) refuses the container. Null when it may run.
    /// </summary>
    public string? NonRootViolation(string imageUser)
    {
        if (!RunAsNonRoot)
        {
            return null;
        }

        if (RunAsUser is { } uid)
        {
            return uid == 0 ? "container's runAsUser breaks non-root policy (runAsUser: 0)" : null;
        }

        var user = imageUser.Split(':')[0];
        if (user.Length == 0)
        {
            return "container has runAsNonRoot and image will run as root (the image sets no USER)";
        }

        if (!long.TryParse(user, NumberStyles.None, CultureInfo.InvariantCulture, out var imageUid))
        {
            return $"container has runAsNonRoot and image has non-numeric user ({user}), cannot verify user is non-root";
        }

        return imageUid == 0 ? "container has runAsNonRoot and image will run as root" : null;
    }

    /// <summary>Docker's security options: no-new-privileges for allowPrivilegeEscalation: false, seccomp for Unconfined (RuntimeDefault is Docker's own default profile).</summary>
    public IReadOnlyList<string> SecurityOptions()
    {
        var options = new List<string>();
        if (NoNewPrivileges)
        {
            options.Add("no-new-privileges");
        }

        if (SeccompType == "Unconfined")
        {
            options.Add("seccomp=unconfined");
        }

        return options;
    }

    /// <summary>Settings the stand-in reads but cannot apply, for a warning.</summary>
    public IEnumerable<string> NotEmulated()
    {
        if (SeccompType == "Localhost")
        {
            yield return "seccompProfile Localhost (Docker's default profile is used)";
        }
    }
}
