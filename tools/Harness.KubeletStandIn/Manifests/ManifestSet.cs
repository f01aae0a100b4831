using k8s;
using k8s.Models;

namespace Harness.KubeletStandIn.Manifests;

/// <summary>A Deployment's or a Job's pod template, with the object it belongs to.</summary>
internal sealed record Workload(string Kind, string Namespace, string Name, V1PodTemplateSpec Template, V1Deployment? Deployment, V1Job? Job)
{
    public string Id => $"{Kind}/{Name}";

    public V1PodSpec Pod => Template.Spec;

    public IDictionary<string, string> Labels => Template.Metadata?.Labels ?? new Dictionary<string, string>();

    public IEnumerable<V1Container> AllContainers => (Pod.InitContainers ?? []).Concat(Pod.Containers ?? []);
}

/// <summary>
/// The rendered manifests, parsed with KubernetesClient's strict reader (an unknown field or a wrong type fails, as
/// the API server would refuse it). Kinds that run pods the stand-in does not emulate are refused; kinds that run
/// nothing (ServiceAccount, NetworkPolicy...) are listed as not applied.
/// </summary>
internal sealed class ManifestSet
{
    /// <summary>The namespace of an object with none, as on a cluster.</summary>
    public const string DefaultNamespace = "default";

    private static readonly HashSet<Type> Handled =
        [typeof(V1Namespace), typeof(V1Service), typeof(V1Deployment), typeof(V1Job), typeof(V1ConfigMap), typeof(V1PersistentVolumeClaim)];

    private static readonly HashSet<Type> PodRunnersNotEmulated =
        [typeof(V1Pod), typeof(V1StatefulSet), typeof(V1DaemonSet), typeof(V1ReplicaSet), typeof(V1CronJob), typeof(V1ReplicationController)];

    public ManifestSet(IReadOnlyList<object> objects)
    {
        Objects = objects;
        foreach (var o in objects.Where(o => PodRunnersNotEmulated.Contains(o.GetType())))
        {
            var meta = (IKubernetesObject<V1ObjectMeta>)o;
            throw new ManifestException($"{meta.Kind}/{meta.Metadata.Name}: the stand-in runs Deployments and Jobs only; {meta.Kind} is not emulated");
        }

        Ignored = [.. objects.Where(o => !Handled.Contains(o.GetType())).Select(Describe)];
    }

    public IReadOnlyList<object> Objects { get; }

    /// <summary>Objects of kinds that run nothing here ("ServiceAccount/x"), for the run's first lines.</summary>
    public IReadOnlyList<string> Ignored { get; }

    public IEnumerable<V1Service> Services => Objects.OfType<V1Service>();

    public IEnumerable<V1Deployment> Deployments => Objects.OfType<V1Deployment>();

    public IEnumerable<V1Job> Jobs => Objects.OfType<V1Job>();

    public IEnumerable<V1PersistentVolumeClaim> Claims => Objects.OfType<V1PersistentVolumeClaim>();

    public IEnumerable<Workload> Workloads =>
        Deployments.Select(d => new Workload("Deployment", NamespaceOf(d.Metadata), d.Metadata.Name, d.Spec.Template, d, null))
            .Concat(Jobs.Select(j => new Workload("Job", NamespaceOf(j.Metadata), j.Metadata.Name, j.Spec.Template, null, j)));

    /// <summary>Every namespace an object lives in, declared or not: each gets a network of its own.</summary>
    public IReadOnlyList<string> Namespaces =>
        [.. Objects.OfType<V1Namespace>().Select(n => n.Metadata.Name)
            .Concat(Objects.OfType<IKubernetesObject<V1ObjectMeta>>().Where(o => o is not V1Namespace).Select(o => NamespaceOf(o.Metadata)))
            .Distinct(StringComparer.Ordinal)];

    public static ManifestSet Parse(string yaml)
    {
        try
        {
            return new ManifestSet(KubernetesYaml.LoadAllFromString(yaml, OperatorObject.Kinds, strict: true));
        }
        catch (KeyNotFoundException ex)
        {
            // KubernetesClient's reader knows the built-in kinds and those given to it; any other is named here.
            throw new ManifestException($"the rendered manifests hold a kind the stand-in does not know ({ex.Message}); it reads the built-in kinds and {string.Join(", ", OperatorObject.Kinds.Keys)}");
        }
        catch (YamlDotNet.Core.YamlException ex)
        {
            throw new ManifestException($"the rendered manifests do not parse strictly: {ex.Message} {ex.InnerException?.Message}".Trim());
        }
    }

    public static string NamespaceOf(V1ObjectMeta metadata) => string.IsNullOrEmpty(metadata.NamespaceProperty) ? DefaultNamespace : metadata.NamespaceProperty;

    public V1ConfigMap? ConfigMap(string ns, string name) =>
        Objects.OfType<V1ConfigMap>().FirstOrDefault(c => c.Metadata.Name == name && NamespaceOf(c.Metadata) == ns);

    public V1PersistentVolumeClaim? Claim(string ns, string name) =>
        Claims.FirstOrDefault(c => c.Metadata.Name == name && NamespaceOf(c.Metadata) == ns);

    /// <summary>The Services of <paramref name="ns"/> whose selector matches <paramref name="podLabels"/> (an empty selector matches nothing: such a Service has no endpoints).</summary>
    public IReadOnlyList<V1Service> ServicesSelecting(string ns, IDictionary<string, string> podLabels) =>
        [.. Services.Where(s => NamespaceOf(s.Metadata) == ns && Selects(s.Spec?.Selector, podLabels))];

    public static bool Selects(IDictionary<string, string>? selector, IDictionary<string, string>? labels) =>
        selector is { Count: > 0 } && labels is not null && selector.All(s => labels.TryGetValue(s.Key, out var v) && v == s.Value);

    public string Serialize() => string.Join("---\n", Objects.Select(KubernetesYaml.Serialize));

    private static string Describe(object o) =>
        o is IKubernetesObject<V1ObjectMeta> k ? $"{k.Kind}/{k.Metadata?.Name}" : o.GetType().Name;
}
