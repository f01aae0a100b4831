using Harness.LoadTests.Containers;
using Harness.LoadTests.Targets;

namespace Harness.LoadTests.Tests.Containers;

/// <summary>The service containers <c>matrix</c> starts: what they listen on is what the runner reaches; no Docker needed.</summary>
public sealed class ServiceContainerTests
{
    private static readonly int[] HostPorts = [41001, 41002, 41003];

    public static TheoryData<string> AllStacks => [.. Stacks.All];

    [Theory]
    [MemberData(nameof(AllStacks))]
    public void MetricsPort_IsSet_Published_AndScraped(string stack)
    {
        // Arrange, Act
        var container = ServiceContainer.For(stack, "threadpool", "harness-x-stub", HostPorts);

        // Assert: Listen__MetricsPort is a container port published on loopback, and the runner scrapes that host port.
        var metricsPort = Assert.Single(container.Env, e => e.StartsWith("Listen__MetricsPort=", StringComparison.Ordinal)).Split('=')[1];
        var binding = Assert.Single(container.Ports[$"{metricsPort}/tcp"]);
        Assert.Equal("127.0.0.1", binding.HostIP);
        Assert.Equal(new Uri($"http://127.0.0.1:{binding.HostPort}"), container.MetricsAddress);
    }

    [Theory]
    [MemberData(nameof(AllStacks))]
    public void Health_IsAskedOnKestrel_NotOnTheMetricsPort(string stack)
    {
        // The start-up wait asks Kestrel's /healthz: the container is idle then, and it proves the port the load will
        // use is up; the dedicated port's /healthz says only that the host has started (probes under load ask that one).
        var container = ServiceContainer.For(stack, "iocp", "harness-x-stub", HostPorts);

        Assert.NotEqual(container.MetricsAddress, container.HealthAddress);
        Assert.NotEqual(container.MetricsAddress, container.Address);
        Assert.Contains(container.Ports.Values, b => b.Single().HostPort == container.HealthAddress.Port.ToString(System.Globalization.CultureInfo.InvariantCulture));
    }

    [Fact]
    public void Grpc_PublishesItsServiceAdminAndMetricsPorts_Soap_ItsServiceAndMetricsPorts()
    {
        Assert.Equal(["5082/tcp", "5083/tcp", "5084/tcp"], ServiceContainer.For(Stacks.Grpc, "iocp", "s", HostPorts).Ports.Keys.Order(StringComparer.Ordinal));
        Assert.Equal(["5081/tcp", "5084/tcp"], ServiceContainer.For(Stacks.Soap, "iocp", "s", HostPorts).Ports.Keys.Order(StringComparer.Ordinal));
    }

    [Fact]
    public void Env_CarriesTheModeAndTheRunsStub()
    {
        var container = ServiceContainer.For(Stacks.Soap, "custompool", "harness-h1-stub", HostPorts);

        Assert.Contains("Scheduling__Mode=custompool", container.Env);
        Assert.Contains("ThirdParty__BaseAddress=http://harness-h1-stub:5080/", container.Env);
    }
}
