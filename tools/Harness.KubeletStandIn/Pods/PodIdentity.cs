using System.Globalization;
using Harness.KubeletStandIn.Manifests;

namespace Harness.KubeletStandIn.Pods;

/// <summary>
/// A pod's name, hostname, labels and annotations as its controller would give them: a Deployment's pods
/// <c>NAME-HASH-XXXXX</c> with <c>pod-template-hash</c>; a Job's <c>NAME-XXXXX</c> (Indexed: <c>NAME-I-XXXXX</c>,
/// hostname <c>NAME-I</c>) with <c>job-name</c>, <c>controller-uid</c> and, when Indexed, the
/// <c>batch.kubernetes.io/job-completion-index</c> label and annotation that <c>fieldRef</c> reads.
/// </summary>
internal sealed record PodIdentity(string Namespace, string Name, string Hostname, string Uid, IDictionary<string, string> Labels, IDictionary<string, string> Annotations, int? CompletionIndex)
{
    public const string CompletionIndexKey = "batch.kubernetes.io/job-completion-index";
    public const string CompletionIndexVariable = "JOB_COMPLETION_INDEX";

    // The characters Kubernetes' rand.String uses: no vowels, no look-alikes.
    private const string Alphabet = "bcdfghjklmnpqrstvwxz2456789";

    public static PodIdentity ForDeployment(Workload workload)
    {
        var hash = Suffix(10, workload.Name);
        var labels = Copy(workload.Labels);
        labels["pod-template-hash"] = hash;
        var name = $"{Trim(workload.Name)}-{hash}-{Suffix(5)}";
        return new PodIdentity(workload.Namespace, name, Host(name), Guid.NewGuid().ToString(), labels, Copy(workload.Template.Metadata?.Annotations), null);
    }

    public static PodIdentity ForJob(Workload workload, string controllerUid, int? index)
    {
        var labels = Copy(workload.Labels);
        var annotations = Copy(workload.Template.Metadata?.Annotations);
        labels["job-name"] = labels["batch.kubernetes.io/job-name"] = workload.Name;
        labels["controller-uid"] = labels["batch.kubernetes.io/controller-uid"] = controllerUid;
        var prefix = Trim(workload.Name);
        if (index is { } i)
        {
            var text = i.ToString(CultureInfo.InvariantCulture);
            labels[CompletionIndexKey] = annotations[CompletionIndexKey] = text;
            prefix = $"{prefix}-{text}";
        }

        var name = $"{prefix}-{Suffix(5)}";
        return new PodIdentity(workload.Namespace, name, Host(index is null ? name : prefix), Guid.NewGuid().ToString(), labels, annotations, index);
    }

    public PodFacts Facts(string? podIp, string? hostIp, string? serviceAccount) =>
        new(Namespace, Name, Uid, Labels, Annotations, podIp, hostIp, serviceAccount);

    private static Dictionary<string, string> Copy(IDictionary<string, string>? map) =>
        map is null ? new(StringComparer.Ordinal) : new(map, StringComparer.Ordinal);

    private static string Suffix(int length, string? seed = null)
    {
        var random = seed is null ? Random.Shared : new Random(StringComparer.Ordinal.GetHashCode(seed));
        return string.Create(length, random, static (span, r) =>
        {
            for (var i = 0; i < span.Length; i++)
            {
                span[i] = Alphabet[r.Next(Alphabet.Length)];
            }
        });
    }

    // generateName keeps at most 58 characters of the prefix, and a hostname is one DNS label of at most 63.
    private static string Trim(string name) => name.Length > 47 ? name[..47] : name;

    private static string Host(string name) => (name.Length > 63 ? name[..63] : name).TrimEnd('-', '.');
}
