using System.Text.Json.Serialization;
using k8s;
using k8s.Models;

namespace Harness.KubeletStandIn.Manifests;

/// <summary>
/// An object of a custom resource the stand-in reads but does not act on: the Prometheus operator's ServiceMonitor and
/// PodMonitor (k8s/overlays/monitoring). Nothing here scrapes, so they are listed as not applied; their metadata is read
/// strictly, their spec as it comes (the operator's CRD schema, not the stand-in, would check it).
/// </summary>
internal sealed class OperatorObject : IKubernetesObject<V1ObjectMeta>
{
    /// <summary>The kinds read as an <see cref="OperatorObject"/>, keyed as KubernetesClient's reader looks them up.</summary>
    public static readonly IDictionary<string, Type> Kinds = new Dictionary<string, Type>
    {
        ["monitoring.coreos.com/v1/ServiceMonitor"] = typeof(OperatorObject),
        ["monitoring.coreos.com/v1/PodMonitor"] = typeof(OperatorObject),
    };

    [JsonPropertyName("apiVersion")]
    public string ApiVersion { get; set; } = "";

    [JsonPropertyName("kind")]
    public string Kind { get; set; } = "";

    [JsonPropertyName("metadata")]
    public V1ObjectMeta Metadata { get; set; } = new();

    [JsonPropertyName("spec")]
    public Dictionary<string, object>? Spec { get; set; }
}
