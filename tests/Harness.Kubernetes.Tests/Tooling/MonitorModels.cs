using System.Text.Json.Serialization;
using k8s;
using k8s.Models;

namespace Harness.Kubernetes.Tests.Tooling;

// The Prometheus operator's ServiceMonitor and PodMonitor (monitoring.coreos.com/v1), as far as k8s/components/monitoring
// writes them: the strict parse refuses a field these do not have, as the operator's CRD schema would refuse a
// misspelt one. Field names as in the operator's API reference.

/// <summary>monitoring.coreos.com/v1 ServiceMonitor: scrape the Services its selector matches, on their named ports.</summary>
public sealed class V1ServiceMonitor : IKubernetesObject<V1ObjectMeta>
{
    public const string ApiGroupVersion = "monitoring.coreos.com/v1";

    [JsonPropertyName("apiVersion")]
    public string ApiVersion { get; set; } = ApiGroupVersion;

    [JsonPropertyName("kind")]
    public string Kind { get; set; } = "ServiceMonitor";

    [JsonPropertyName("metadata")]
    public V1ObjectMeta Metadata { get; set; } = new();

    [JsonPropertyName("spec")]
    public ServiceMonitorSpec Spec { get; set; } = new();
}

public sealed class ServiceMonitorSpec
{
    [JsonPropertyName("selector")]
    public V1LabelSelector Selector { get; set; } = new();

    [JsonPropertyName("endpoints")]
    public IList<MonitorEndpoint> Endpoints { get; set; } = [];
}

/// <summary>monitoring.coreos.com/v1 PodMonitor: scrape the pods its selector matches, on their named container ports.</summary>
public sealed class V1PodMonitor : IKubernetesObject<V1ObjectMeta>
{
    [JsonPropertyName("apiVersion")]
    public string ApiVersion { get; set; } = V1ServiceMonitor.ApiGroupVersion;

    [JsonPropertyName("kind")]
    public string Kind { get; set; } = "PodMonitor";

    [JsonPropertyName("metadata")]
    public V1ObjectMeta Metadata { get; set; } = new();

    [JsonPropertyName("spec")]
    public PodMonitorSpec Spec { get; set; } = new();
}

public sealed class PodMonitorSpec
{
    [JsonPropertyName("selector")]
    public V1LabelSelector Selector { get; set; } = new();

    [JsonPropertyName("podMetricsEndpoints")]
    public IList<MonitorEndpoint> PodMetricsEndpoints { get; set; } = [];
}

/// <summary>An endpoint of either monitor: the port's name, the path, how often and how long.</summary>
public sealed class MonitorEndpoint
{
    [JsonPropertyName("port")]
    public string Port { get; set; } = "";

    [JsonPropertyName("path")]
    public string? Path { get; set; }

    [JsonPropertyName("interval")]
    public string? Interval { get; set; }

    [JsonPropertyName("scrapeTimeout")]
    public string? ScrapeTimeout { get; set; }
}
