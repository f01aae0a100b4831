using Docker.DotNet;
using Docker.DotNet.Models;
using Harness.KubeletStandIn.Runtime;

namespace Harness.KubeletStandIn.Tests.Tooling;

/// <summary>Whatever the engine still holds with a run's label: containers, networks, volumes.</summary>
public static class Leftovers
{
    public static async Task<IReadOnlyList<string>> OfRunAsync(string runId)
    {
        using var docker = new DockerClientConfiguration(new Uri(Environment.GetEnvironmentVariable("DOCKER_HOST") is { Length: > 0 } h ? h : "unix:///var/run/docker.sock")).CreateClient();
        var filter = new Dictionary<string, IDictionary<string, bool>> { ["label"] = new Dictionary<string, bool> { [$"{DockerRuntime.RunLabel}={runId}"] = true } };
        var containers = await docker.Containers.ListContainersAsync(new ContainersListParameters { All = true, Filters = filter });
        var networks = await docker.Networks.ListNetworksAsync(new NetworksListParameters { Filters = filter });
        var volumes = await docker.Volumes.ListAsync(new VolumesListParameters { Filters = filter });
        return
        [
            .. containers.Select(c => "container " + string.Join(',', c.Names)),
            .. networks.Select(n => "network " + n.Name),
            .. (volumes.Volumes ?? []).Select(v => "volume " + v.Name),
        ];
    }
}
