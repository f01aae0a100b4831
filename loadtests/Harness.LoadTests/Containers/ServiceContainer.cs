using System.Globalization;
using Docker.DotNet.Models;
using Harness.Agreements;
using Harness.LoadTests.Targets;

namespace Harness.LoadTests.Containers;

/// <summary>
/// One stack's service container as <c>matrix</c> starts it: its environment, its ports published on 127.0.0.1, and
/// where the runner reaches it: the service, its /healthz (the admin port where there is one) and its /metrics on
/// <see cref="MetricsPort"/>, answered by a thread of its own outside the ThreadPool, so that a starved pool
/// (threadpool mode's blocking CallThirdParty) cannot empty the server charts.
/// </summary>
internal sealed record ServiceContainer(
    IReadOnlyList<string> Env, Dictionary<string, IList<PortBinding>> Ports, Uri Address, Uri HealthAddress, Uri MetricsAddress)
{
    /// <summary><c>Listen__MetricsPort</c> in the container, as in docker-compose.yml and k8s/.</summary>
    public const int MetricsPort = 5084;

    // Listen__Port and Listen__AdminPort as the images set them (Dockerfile PORT, ADMIN_PORT).
    private static readonly Dictionary<string, (int Port, int? AdminPort)> ImagePorts = new()
    {
        [Stacks.Soap] = (5081, null),
        [Stacks.Grpc] = (5082, 5083),
    };

    /// <summary>How many free host ports <see cref="For"/> needs.</summary>
    public const int HostPortCount = 3;

    /// <param name="hostPorts"><see cref="HostPortCount"/> free loopback ports: the service's, the admin port's (unused where there is none), the metrics port's.</param>
    public static ServiceContainer For(string stack, string mode, string stubName, IReadOnlyList<int> hostPorts)
    {
        var (port, adminPort) = ImagePorts[stack];
        List<(int Container, int Host)> published = [(port, hostPorts[0]), (MetricsPort, hostPorts[2])];
        if (adminPort is { } admin)
        {
            published.Add((admin, hostPorts[1]));
        }

        var address = new Uri($"http://127.0.0.1:{hostPorts[0]}");
        return new ServiceContainer(
            [$"{SchedulingModes.ModeVariable}={mode}", $"ThirdParty__BaseAddress=http://{stubName}:5080/", $"Listen__MetricsPort={MetricsPort}"],
            Publish(published),
            address,
            adminPort is null ? address : new Uri($"http://127.0.0.1:{hostPorts[1]}"),
            new Uri($"http://127.0.0.1:{hostPorts[2]}"));
    }

    // Fixed host ports rather than Docker's random ones: a container started again after a kill keeps its addresses.
    public static Dictionary<string, IList<PortBinding>> Publish(IEnumerable<(int Container, int Host)> ports) =>
        ports.ToDictionary(
            p => $"{p.Container}/tcp",
            p => (IList<PortBinding>)[new PortBinding { HostIP = "127.0.0.1", HostPort = p.Host.ToString(CultureInfo.InvariantCulture) }]);
}
