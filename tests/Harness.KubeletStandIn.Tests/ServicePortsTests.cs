using Harness.KubeletStandIn.Manifests;
using Harness.KubeletStandIn.Pods;
using Harness.KubeletStandIn.Tests.Tooling;

namespace Harness.KubeletStandIn.Tests;

public sealed class ServicePortsTests
{
    private static string Stack(string servicePorts) => $$$"""
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web}
        spec:
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web, tier: front}}
            spec:
              containers:
                - name: web
                  image: harness/stub:local
                  ports: [{name: http, containerPort: 5080}, {name: admin, containerPort: 5083}]
        ---
        apiVersion: v1
        kind: Service
        metadata: {name: web}
        spec:
          selector: {app: web}
          ports: {{{servicePorts}}}
        """;

    [Theory]
    [InlineData("[{port: 5080, targetPort: http}, {port: 5083, targetPort: admin}]")]
    [InlineData("[{port: 5080, targetPort: 5080}]")]
    [InlineData("[{port: 5080}]")]
    public void PortEqualToTheResolvedTarget_Passes(string ports)
    {
        var (errors, warnings) = ServicePorts.Check(Yaml.Parse(Stack(ports)));
        Assert.Empty(errors);
        Assert.Empty(warnings);
    }

    [Theory]
    [InlineData("[{name: web, port: 80, targetPort: http}]", "Service default/web port 80 (web) → Deployment/web port 5080")]
    [InlineData("[{port: 80, targetPort: 5080}]", "Service default/web port 80 → Deployment/web port 5080")]
    public void APortThatARemapWouldNeed_IsRefusedByName(string ports, string message)
    {
        var (errors, _) = ServicePorts.Check(Yaml.Parse(Stack(ports)));
        var error = Assert.Single(errors);
        Assert.StartsWith(message, error, StringComparison.Ordinal);
        Assert.Contains("Docker network aliases cannot remap ports", error, StringComparison.Ordinal);
    }

    [Fact]
    public void AnUndeclaredNamedTarget_AndASelectorThatMatchesNothing_AreWarnings()
    {
        var (errors, warnings) = ServicePorts.Check(Yaml.Parse(Stack("[{port: 5084, targetPort: metrics}]")));
        Assert.Empty(errors);
        Assert.Contains("targetPort 'metrics' is not a port", Assert.Single(warnings), StringComparison.Ordinal);

        var (_, none) = ServicePorts.Check(Yaml.Parse(Stack("[{port: 5080}]").Replace("selector: {app: web}", "selector: {app: other}", StringComparison.Ordinal)));
        Assert.Contains("matches no Deployment or Job", Assert.Single(none), StringComparison.Ordinal);
    }

    [Fact]
    public void ServicesSelectingAPod_BecomeItsAliases_InEveryClusterForm()
    {
        var manifests = Yaml.Parse(Stack("[{port: 5080}]"));
        var names = manifests.ServicesSelecting("default", new Dictionary<string, string> { ["app"] = "web", ["x"] = "y" }).Select(s => s.Metadata.Name);
        Assert.Equal(["web", "web.default", "web.default.svc", "web.default.svc.cluster.local"], ContainerFactory.Aliases(names, "default"));
        Assert.Empty(manifests.ServicesSelecting("default", new Dictionary<string, string> { ["tier"] = "front" }));
        Assert.Empty(manifests.ServicesSelecting("other", new Dictionary<string, string> { ["app"] = "web" }));
    }
}
