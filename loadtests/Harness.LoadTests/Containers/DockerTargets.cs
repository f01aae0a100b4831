using System.Globalization;
using System.Net;
using Docker.DotNet.Models;
using Docker.DotNet;
using Harness.LoadTests.Hosting;
using Harness.LoadTests.Targets;

namespace Harness.LoadTests.Containers;

/// <summary>
/// Targets in containers that <c>matrix</c> starts through Docker.DotNet: one stub for the whole run, and per mode one
/// container per stack, all on a network of the run's own, with identical CPU and memory limits. Every container and
/// the network carry the labels <c>harness=1</c> and <c>harness.run=&lt;id&gt;</c>, and are removed when the mode ends,
/// on Ctrl+C and on failure. Ports are published on 127.0.0.1 only.
/// </summary>
internal sealed class DockerTargets : ITargetProvider, ISeriesWatcher
{
    public const string HarnessLabel = "harness";
    public const string RunLabel = "harness.run";

    private static readonly TimeSpan HealthTimeout = TimeSpan.FromSeconds(90);

    private readonly DockerClient _docker;
    private readonly MatrixSettings _settings;
    private readonly Action<string> _log;
    private readonly ContainerStatsSampler _stats;
    private readonly FaultInjector _faults;
    private readonly Dictionary<ServiceTarget, string> _containerOf = [];
    private readonly Dictionary<string, List<string>> _containersOfMode = [];
    private readonly List<string> _healthTimes = [];
    private string? _networkId;
    private string? _stubId;

    private DockerTargets(DockerClient docker, MatrixSettings settings, Action<string> log)
    {
        _docker = docker;
        _settings = settings;
        _log = log;
        _stats = new ContainerStatsSampler(docker);
        _faults = new FaultInjector(docker, log);
        RunId = "h" + DateTimeOffset.Now.ToString("yyyyMMddHHmmss", CultureInfo.InvariantCulture) + "-" + Environment.ProcessId.ToString(CultureInfo.InvariantCulture);
    }

    /// <summary>The value of the <c>harness.run</c> label on everything this run creates.</summary>
    public string RunId { get; }

    /// <summary>"stack/mode healthy after N s" lines, one per container started, for the summary.</summary>
    public IReadOnlyList<string> HealthTimes => _healthTimes;

    /// <summary>Connects to the engine, checks the images, and starts the network and the stub.</summary>
    /// <exception cref="DockerUnavailableException">No engine answers at the endpoint, or an image is missing.</exception>
    public static async Task<DockerTargets> CreateAsync(MatrixSettings settings, Action<string> log, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var docker = new DockerClientConfiguration(settings.DockerHost, defaultTimeout: TimeSpan.FromSeconds(30)).CreateClient();
        try
        {
            using var ping = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            ping.CancelAfter(TimeSpan.FromSeconds(10));
            await docker.System.PingAsync(ping.Token);
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
        {
            docker.Dispose();
            throw new DockerUnavailableException(
                $"No Docker engine answered at {settings.DockerHost} ({ex.GetBaseException().Message}). Start dockerd, or point --docker-host (or DOCKER_HOST) at the engine's socket.",
                ex);
        }

        var targets = new DockerTargets(docker, settings, log);
        try
        {
            foreach (var image in settings.Stacks.Select(targets.ImageOf).Prepend(targets.ImageOf("stub")))
            {
                await targets.RequireImageAsync(image, cancellationToken);
            }

            await targets.StartNetworkAndStubAsync(cancellationToken);
            return targets;
        }
        catch
        {
            await targets.DisposeAsync();
            throw;
        }
    }

    public async Task<IReadOnlyList<ServiceTarget>> AcquireAsync(string mode, CancellationToken cancellationToken)
    {
        var started = new List<ServiceTarget>();
        var ids = _containersOfMode[mode] = [];
        foreach (var stack in _settings.Stacks)
        {
            var container = ServiceContainer.For(stack, mode, StubName, LoopbackPorts.Free(ServiceContainer.HostPortCount));
            var id = await CreateAndStartAsync(
                $"harness-{RunId}-{stack}-{mode}", ImageOf(stack), [.. container.Env], container.Ports, cancellationToken);
            ids.Add(id);

            await WaitHealthyAsync($"{stack}/{mode}", container.HealthAddress, cancellationToken);
            var target = new ServiceTarget(stack, mode, container.Address, container.MetricsAddress);
            _containerOf[target] = id;
            started.Add(target);
        }

        return started;
    }

    public async Task ReleaseAsync(string mode)
    {
        if (_containersOfMode.Remove(mode, out var ids))
        {
            foreach (var id in ids)
            {
                await RemoveQuietlyAsync(id);
            }
        }
    }

    /// <summary>Beside each series: the container's stats into its timeline (<see cref="ContainerStatsSampler"/>), and the fault, if any (<see cref="FaultInjector"/>).</summary>
    public async Task WatchAsync(ServiceTarget target, SeriesWatch series, CancellationToken cancellationToken)
    {
        if (!_containerOf.TryGetValue(target, out var id))
        {
            return;
        }

        var stats = _stats.SampleAsync(id, series, cancellationToken);
        var fault = _settings.Fault is { } plan ? _faults.InjectAsync(id, plan, series, cancellationToken) : Task.CompletedTask;
        await Task.WhenAll(stats, fault);
    }

    public async ValueTask DisposeAsync()
    {
        await RemoveRunAsync();
        _docker.Dispose();
    }

    /// <summary>Removes every container and the network labelled with this run, whatever state the run ended in; safe to call twice.</summary>
    public async Task RemoveRunAsync()
    {
        try
        {
            var leftovers = await _docker.Containers.ListContainersAsync(
                new ContainersListParameters { All = true, Filters = RunFilter() }, CancellationToken.None);
            foreach (var container in leftovers)
            {
                await RemoveQuietlyAsync(container.ID);
            }

            if (Interlocked.Exchange(ref _networkId, null) is { } network)
            {
                await _docker.Networks.DeleteNetworkAsync(network, CancellationToken.None);
            }
        }
        catch (Exception ex) when (ex is DockerApiException or HttpRequestException or IOException or TimeoutException)
        {
            _log($"clean-up incomplete ({ex.Message}); remove leftovers with: docker rm -f $(docker ps -aq -f label={RunLabel}={RunId})");
        }
    }

    private string StubName => $"harness-{RunId}-stub";

    private string ImageOf(string service) => $"harness/{service}:{_settings.ImageTag}";

    private async Task RequireImageAsync(string image, CancellationToken cancellationToken)
    {
        try
        {
            await _docker.Images.InspectImageAsync(image, cancellationToken);
        }
        catch (DockerApiException ex) when (ex.StatusCode == HttpStatusCode.NotFound)
        {
            throw new DockerUnavailableException($"The image {image} is not on this engine; build the images with scripts/build-images.sh (or pass --image-tag).", ex);
        }
    }

    private async Task StartNetworkAndStubAsync(CancellationToken cancellationToken)
    {
        var network = await _docker.Networks.CreateNetworkAsync(
            new NetworksCreateParameters { Name = $"harness-{RunId}", Labels = Labels() }, cancellationToken);
        _networkId = network.ID;

        var stubPort = LoopbackPorts.Free(1)[0];
        _stubId = await CreateAndStartAsync(StubName, ImageOf("stub"), [], ServiceContainer.Publish([(5080, stubPort)]), cancellationToken);
        await WaitHealthyAsync("stub", new Uri($"http://127.0.0.1:{stubPort}"), cancellationToken);
    }

    private async Task<string> CreateAndStartAsync(
        string name, string image, IList<string> env, IDictionary<string, IList<PortBinding>> ports, CancellationToken cancellationToken)
    {
        var created = await _docker.Containers.CreateContainerAsync(
            new CreateContainerParameters
            {
                Name = name,
                Image = image,
                Env = env,
                Labels = Labels(),
                ExposedPorts = ports.Keys.ToDictionary(p => p, _ => default(EmptyStruct)),
                HostConfig = new HostConfig
                {
                    NanoCPUs = (long)(_settings.Cpus * 1e9),
                    Memory = _settings.MemoryBytes,
                    PortBindings = ports,
                    NetworkMode = $"harness-{RunId}",
                    ReadonlyRootfs = true,
                    Tmpfs = new Dictionary<string, string> { ["/tmp"] = "" },
                },
            },
            cancellationToken);
        await _docker.Containers.StartContainerAsync(created.ID, new ContainerStartParameters(), cancellationToken);
        return created.ID;
    }

    // An InvalidOperationException from here makes the orchestrator skip this mode and go on with the others.
    private async Task WaitHealthyAsync(string what, Uri address, CancellationToken cancellationToken)
    {
        var took = await HealthProbe.WaitAsync(what, address, HealthTimeout, static () => null, cancellationToken);
        var line = string.Create(CultureInfo.InvariantCulture, $"{what} healthy after {took.TotalSeconds:F2} s");
        _healthTimes.Add(line);
        _log(line);
    }

    private async Task RemoveQuietlyAsync(string id)
    {
        try
        {
            await _docker.Containers.RemoveContainerAsync(id, new ContainerRemoveParameters { Force = true }, CancellationToken.None);
        }
        catch (DockerContainerNotFoundException)
        {
        }
    }

    private Dictionary<string, string> Labels() => new() { [HarnessLabel] = "1", [RunLabel] = RunId };

    private Dictionary<string, IDictionary<string, bool>> RunFilter() =>
        new() { ["label"] = new Dictionary<string, bool> { [$"{RunLabel}={RunId}"] = true } };
}
