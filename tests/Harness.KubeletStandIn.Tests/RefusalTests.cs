using Harness.KubeletStandIn.Tests.Tooling;

namespace Harness.KubeletStandIn.Tests;

/// <summary>What the stand-in refuses before it touches Docker: exit 2, one error naming the object, the last line still the restart count.</summary>
public sealed class RefusalTests
{
    private static readonly TimeSpan Bound = TimeSpan.FromMinutes(1);

    [Fact]
    public void AServiceThatRemapsAPort_IsRefusedByName()
    {
        using var folder = new TempKustomization(Docker.Manifests.Stub().Replace("ports: [{name: http, port: 5080, targetPort: http}]", "ports: [{name: http, port: 80, targetPort: http}]", StringComparison.Ordinal));
        var result = StandInProcess.Run(Bound, folder.Directory, "--output", folder.Output);

        Assert.True(result.ExitCode == 2, result.Output);
        Assert.Contains("error: Service default/stub port 80 (http) → Deployment/stub port 5080: Docker network aliases cannot remap ports", result.StandardError, StringComparison.Ordinal);
        Assert.Equal("restarts: 0", result.LastLine);
    }

    [Fact]
    public void KindsThatRunPodsButAreNotEmulated_AreRefused()
    {
        using var folder = new TempKustomization("""
            apiVersion: apps/v1
            kind: StatefulSet
            metadata: {name: db}
            spec:
              serviceName: db
              selector: {matchLabels: {app: db}}
              template:
                metadata: {labels: {app: db}}
                spec: {containers: [{name: db, image: harness/stub:local}]}
            """);
        var result = StandInProcess.Run(Bound, folder.Directory, "--output", folder.Output);

        Assert.True(result.ExitCode == 2, result.Output);
        Assert.Contains("StatefulSet/db: the stand-in runs Deployments and Jobs only", result.StandardError, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--agents=0", "error: --agents '0' is not valid")]
    [InlineData("--duration=soon", "error: --duration 'soon' is not a duration")]
    public void BadOptions_ExitTwo_WithOneLine(string option, string message)
    {
        var result = StandInProcess.Run(Bound, "base", "--output", "/tmp/unused", option);
        Assert.Equal(2, result.ExitCode);
        Assert.StartsWith(message, result.StandardError, StringComparison.Ordinal);
        Assert.Single(result.StandardError.Trim().Split('\n'));
        Assert.Equal("restarts: 0", result.LastLine);
    }
}
