using k8s;
using k8s.Models;

namespace Harness.Kubernetes.Tests.Tooling;

/// <summary>A Deployment's or Job's pod template, with the object it belongs to.</summary>
public sealed record Workload(string Kind, string Name, V1ObjectMeta Metadata, V1PodTemplateSpec Template, int? Replicas)
{
    public string Id => $"{Kind}/{Name}";

    public V1PodSpec Pod => Template.Spec;

    public IEnumerable<V1Container> AllContainers => (Pod.InitContainers ?? []).Concat(Pod.Containers);
}

/// <summary>
/// A rendered kustomization parsed strictly: an unknown field or a value of the wrong type anywhere fails the
/// parse, as the API server would reject it.
/// </summary>
public sealed class Manifests(IReadOnlyList<object> objects)
{
    public IReadOnlyList<object> Objects { get; } = objects;

    public IEnumerable<V1Namespace> Namespaces => Objects.OfType<V1Namespace>();

    public IEnumerable<V1Service> Services => Objects.OfType<V1Service>();

    public IEnumerable<V1Deployment> Deployments => Objects.OfType<V1Deployment>();

    public IEnumerable<V1Job> Jobs => Objects.OfType<V1Job>();

    public IEnumerable<V1ConfigMap> ConfigMaps => Objects.OfType<V1ConfigMap>();

    public IEnumerable<V1PersistentVolumeClaim> Claims => Objects.OfType<V1PersistentVolumeClaim>();

    public IEnumerable<V1ServiceMonitor> ServiceMonitors => Objects.OfType<V1ServiceMonitor>();

    public IEnumerable<V1PodMonitor> PodMonitors => Objects.OfType<V1PodMonitor>();

    public IEnumerable<Workload> Workloads =>
        Deployments.Select(d => new Workload("Deployment", d.Metadata.Name, d.Metadata, d.Spec.Template, d.Spec.Replicas ?? 1))
            .Concat(Jobs.Select(j => new Workload("Job", j.Metadata.Name, j.Metadata, j.Spec.Template, null)));

    private static readonly System.Collections.Concurrent.ConcurrentDictionary<string, Lazy<Manifests>> Rendered = new(StringComparer.Ordinal);

    /// <summary>One of the repository's kustomizations (base, overlays/soak...), rendered once per test run.</summary>
    public static Manifests Of(string kustomization) =>
        Rendered.GetOrAdd(kustomization, k => new Lazy<Manifests>(() => Render(Repository.Kustomization(k)))).Value;

    public static Manifests Render(string directory) => Parse(Kubectl.Kustomize(directory));

    public static Manifests Parse(string yaml) => new(KubernetesYaml.LoadAllFromString(yaml, Monitors, strict: true));

    /// <summary>The kinds beyond Kubernetes' own that an overlay may hold: the Prometheus operator's monitors (overlays/monitoring).</summary>
    private static readonly Dictionary<string, Type> Monitors = new(StringComparer.Ordinal)
    {
        [$"{V1ServiceMonitor.ApiGroupVersion}/ServiceMonitor"] = typeof(V1ServiceMonitor),
        [$"{V1ServiceMonitor.ApiGroupVersion}/PodMonitor"] = typeof(V1PodMonitor),
    };

    public V1Job Job(string name) =>
        Jobs.SingleOrDefault(j => j.Metadata.Name == name) ?? throw new InvalidOperationException($"No Job {name} in the render.");

    public Workload Workload(string kind, string name) =>
        Workloads.SingleOrDefault(w => w.Kind == kind && w.Name == name) ?? throw new InvalidOperationException($"No {kind}/{name} in the render.");

    /// <summary>The workloads whose pod template carries every label of <paramref name="selector"/>.</summary>
    public IReadOnlyList<Workload> Selected(IDictionary<string, string>? selector) =>
        selector is null || selector.Count == 0
            ? []
            : [.. Workloads.Where(w => selector.All(s => w.Template.Metadata?.Labels is { } l && l.TryGetValue(s.Key, out var v) && v == s.Value))];
}
