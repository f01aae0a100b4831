using Harness.KubeletStandIn.Probes;
using k8s.Models;

namespace Harness.KubeletStandIn.Tests;

public sealed class ProbeTests
{
    [Fact]
    public void From_FillsTheApiServersDefaults()
    {
        var settings = ProbeSettings.From(ProbeKind.Liveness, new V1Probe { TcpSocket = new V1TCPSocketAction { Port = 80 } });
        Assert.Equal(new ProbeSettings(ProbeKind.Liveness, TimeSpan.Zero, TimeSpan.FromSeconds(10), TimeSpan.FromSeconds(1), 1, 3), settings);
        Assert.Equal(TimeSpan.FromSeconds(21), settings.Patience);
    }

    [Fact]
    public void From_KeepsTheProbesOwnValues()
    {
        var settings = ProbeSettings.From(ProbeKind.Readiness, new V1Probe
        {
            HttpGet = new V1HTTPGetAction { Port = "http" },
            InitialDelaySeconds = 10,
            PeriodSeconds = 20,
            TimeoutSeconds = 10,
            SuccessThreshold = 2,
            FailureThreshold = 15,
        });
        Assert.Equal(new ProbeSettings(ProbeKind.Readiness, TimeSpan.FromSeconds(10), TimeSpan.FromSeconds(20), TimeSpan.FromSeconds(10), 2, 15), settings);
        // The harness's tolerant liveness: 10 s + 14 × 20 s + 10 s = 5 minutes before a restart.
        Assert.Equal(TimeSpan.FromMinutes(5), settings.Patience);
    }

    [Theory]
    [InlineData("Liveness", 2, "successThreshold must be 1")]
    [InlineData("Startup", 3, "successThreshold must be 1")]
    [InlineData("Readiness", 3, null)]
    public void Validate_RefusesWhatTheApiServerRefuses(string probe, int successThreshold, string? problem)
    {
        var kind = Enum.Parse<ProbeKind>(probe);
        var result = ProbeSettings.Validate(kind, new V1Probe { TcpSocket = new V1TCPSocketAction { Port = 1 }, SuccessThreshold = successThreshold });
        if (problem is null)
        {
            Assert.Null(result);
        }
        else
        {
            Assert.Contains(problem, result, StringComparison.Ordinal);
        }

        Assert.Contains("exactly one of", ProbeSettings.Validate(kind, new V1Probe()), StringComparison.Ordinal);
    }

    [Fact]
    public void ResolvePort_ReadsNumbersAndTheContainersNamedPorts()
    {
        var container = new V1Container { Ports = [new V1ContainerPort { Name = "admin", ContainerPort = 5083 }] };
        Assert.Equal(5083, ProbeSettings.ResolvePort("admin", container));
        Assert.Equal(5082, ProbeSettings.ResolvePort(5082, container));
        Assert.Null(ProbeSettings.ResolvePort("metrics", container));
    }

    [Fact]
    public void Counter_FlipsOnlyAfterTheThresholdInARow()
    {
        var liveness = new ProbeCounter(new ProbeSettings(ProbeKind.Liveness, TimeSpan.Zero, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1), 1, 3));
        Assert.Null(liveness.State);
        Assert.False(liveness.Record(false));
        Assert.False(liveness.Record(false));
        Assert.True(liveness.Record(true)); // a success resets the failures
        Assert.False(liveness.Record(false));
        Assert.False(liveness.Record(false));
        Assert.True(liveness.Record(false));
        Assert.False(liveness.State);

        var readiness = new ProbeCounter(new ProbeSettings(ProbeKind.Readiness, TimeSpan.Zero, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1), 2, 1));
        Assert.False(readiness.State); // not ready until a probe says so
        Assert.False(readiness.Record(true));
        Assert.True(readiness.Record(true));
        Assert.True(readiness.State);
        Assert.True(readiness.Record(false));
        Assert.False(readiness.State);
    }
}
