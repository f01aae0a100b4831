using Harness.KubeletStandIn.Manifests;
using Harness.KubeletStandIn.Tests.Tooling;

namespace Harness.KubeletStandIn.Tests;

/// <summary>
/// Custom resources in the manifests: the Prometheus operator's monitors (k8s/overlays/monitoring) are read and listed
/// as not applied; a kind nobody taught the reader is refused naming it, not with a stack trace.
/// </summary>
public sealed class CustomResourceTests
{
    [Fact]
    public void OperatorMonitors_AreReadAndListedAsNotApplied()
    {
        var manifests = Yaml.Parse("""
            apiVersion: monitoring.coreos.com/v1
            kind: ServiceMonitor
            metadata: {name: services}
            spec:
              selector: {matchLabels: {app: soap}}
              endpoints: [{port: metrics, interval: 5s}]
            ---
            apiVersion: monitoring.coreos.com/v1
            kind: PodMonitor
            metadata: {name: load}
            spec:
              selector: {matchLabels: {app: runner}}
              podMetricsEndpoints: [{port: metrics}]
            """);

        Assert.Equal(["ServiceMonitor/services", "PodMonitor/load"], manifests.Ignored);
    }

    [Fact]
    public void AnUnknownKind_IsRefusedNamingTheKindsTheStandInReads()
    {
        var refused = Assert.Throws<ManifestException>(() => Yaml.Parse("""
            apiVersion: example.com/v1
            kind: Widget
            metadata: {name: w}
            """));

        Assert.Contains("a kind the stand-in does not know", refused.Message, StringComparison.Ordinal);
        Assert.Contains("monitoring.coreos.com/v1/PodMonitor", refused.Message, StringComparison.Ordinal);
    }
}
