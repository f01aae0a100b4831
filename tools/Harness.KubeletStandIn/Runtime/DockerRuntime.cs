using System.Collections.Concurrent;
using System.Formats.Tar;
using System.Globalization;
using System.Net;
using System.Text;
using Docker.DotNet;
using Docker.DotNet.Models;

namespace Harness.KubeletStandIn.Runtime;

/// <summary>
/// The Docker engine as the stand-in uses it. Everything it creates (containers, networks, volumes) carries the labels
/// <c>harness.kubelet=1</c> and <c>harness.kubelet.run=&lt;run id&gt;</c>, so <see cref="RemoveRunAsync"/> finds it
/// all again whatever state the run ended in. Images are never pulled: a missing one is an error naming it.
/// </summary>
internal sealed class DockerRuntime : IDisposable
{
    public const string Label = "harness.kubelet";
    public const string RunLabel = "harness.kubelet.run";
    public const string PodLabel = "harness.kubelet.pod";
    public const string ContainerLabel = "harness.kubelet.container";

    private readonly ConcurrentDictionary<string, ImageInspectResponse> _images = new(StringComparer.Ordinal);

    private DockerRuntime(DockerClient client, string endpoint)
    {
        Client = client;
        Endpoint = endpoint;
        RunId = "kubelet-" + DateTimeOffset.Now.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture) + "-" + Environment.ProcessId.ToString(CultureInfo.InvariantCulture);
    }

    public DockerClient Client { get; }

    public string Endpoint { get; }

    /// <summary>The value of <see cref="RunLabel"/> and the prefix of every name this run gives.</summary>
    public string RunId { get; }

    public static async Task<DockerRuntime> ConnectAsync(CancellationToken cancellationToken)
    {
        var endpoint = Environment.GetEnvironmentVariable("DOCKER_HOST") is { Length: > 0 } host ? host : "unix:///var/run/docker.sock";
        var client = new DockerClientConfiguration(new Uri(endpoint), defaultTimeout: TimeSpan.FromSeconds(60)).CreateClient();
        try
        {
            using var ping = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            ping.CancelAfter(TimeSpan.FromSeconds(10));
            await client.System.PingAsync(ping.Token);
            return new DockerRuntime(client, endpoint);
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
        {
            client.Dispose();
            throw new RuntimeUnavailableException($"no Docker engine answered at {endpoint} ({ex.GetBaseException().Message}); start dockerd or set DOCKER_HOST");
        }
    }

    public IDictionary<string, string> Labels(string? pod = null, string? container = null)
    {
        var labels = new Dictionary<string, string> { [Label] = "1", [RunLabel] = RunId };
        if (pod is not null)
        {
            labels[PodLabel] = pod;
        }

        if (container is not null)
        {
            labels[ContainerLabel] = container;
        }

        return labels;
    }

    /// <summary>The local image; never pulled. A missing one names the image and how to build it.</summary>
    public async Task<ImageInspectResponse> ImageAsync(string image, CancellationToken cancellationToken)
    {
        if (_images.TryGetValue(image, out var known))
        {
            return known;
        }

        try
        {
            return _images[image] = await Client.Images.InspectImageAsync(image, cancellationToken);
        }
        catch (DockerApiException ex) when (ex.StatusCode == HttpStatusCode.NotFound)
        {
            throw new RuntimeUnavailableException(
                $"the image {image} is not on this Docker engine, and the stand-in never pulls (there is no registry here): build it with scripts/build-images.sh, or point the overlay's images: at a local image");
        }
    }

    public async Task<string> CreateNetworkAsync(string name, CancellationToken cancellationToken)
    {
        var created = await Client.Networks.CreateNetworkAsync(new NetworksCreateParameters { Name = name, Labels = Labels(), CheckDuplicate = true }, cancellationToken);
        return created.ID;
    }

    public async Task CreateVolumeAsync(string name, IDictionary<string, string>? driverOptions, IDictionary<string, string> labels, CancellationToken cancellationToken) =>
        await Client.Volumes.CreateAsync(new VolumesCreateParameters { Name = name, Driver = "local", DriverOpts = driverOptions, Labels = labels }, cancellationToken);

    public async Task<string> CreateContainerAsync(CreateContainerParameters parameters, CancellationToken cancellationToken) =>
        (await Client.Containers.CreateContainerAsync(parameters, cancellationToken)).ID;

    public Task StartAsync(string id, CancellationToken cancellationToken) =>
        Client.Containers.StartContainerAsync(id, new ContainerStartParameters(), cancellationToken);

    /// <summary>Waits for the container to exit; its exit code.</summary>
    public async Task<long> WaitAsync(string id, CancellationToken cancellationToken) =>
        (await Client.Containers.WaitContainerAsync(id, cancellationToken)).StatusCode;

    /// <summary>SIGTERM, then SIGKILL after the grace period, as the kubelet stops a container.</summary>
    public async Task StopAsync(string id, TimeSpan grace)
    {
        try
        {
            await Client.Containers.StopContainerAsync(id, new ContainerStopParameters { WaitBeforeKillSeconds = (uint)Math.Max(0, grace.TotalSeconds) }, CancellationToken.None);
        }
        catch (DockerContainerNotFoundException)
        {
        }
    }

    public async Task<string?> IpAddressAsync(string id, string network, CancellationToken cancellationToken)
    {
        var inspect = await Client.Containers.InspectContainerAsync(id, cancellationToken);
        return inspect.NetworkSettings?.Networks is { } networks && networks.TryGetValue(network, out var endpoint) ? endpoint.IPAddress : null;
    }

    /// <summary>Runs a command in a running container; its exit code, or null when it did not end within <paramref name="timeout"/>.</summary>
    public async Task<long?> ExecAsync(string id, IList<string> command, TimeSpan timeout, CancellationToken cancellationToken)
    {
        using var bounded = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        bounded.CancelAfter(timeout);
        try
        {
            var exec = await Client.Exec.ExecCreateContainerAsync(id, new ContainerExecCreateParameters { Cmd = command, AttachStdout = true, AttachStderr = true }, bounded.Token);
            using (var stream = await Client.Exec.StartAndAttachContainerExecAsync(exec.ID, false, bounded.Token))
            {
                await stream.ReadOutputToEndAsync(bounded.Token);
            }

            return (await Client.Exec.InspectContainerExecAsync(exec.ID, bounded.Token)).ExitCode;
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return null;
        }
    }

    /// <summary>The container's output, stdout and stderr in the order written, each line prefixed.</summary>
    public async Task WriteLogsAsync(string id, TextWriter writer, string prefix, CancellationToken cancellationToken)
    {
        foreach (var line in await LogLinesAsync(id, "all", cancellationToken))
        {
            await writer.WriteLineAsync(prefix + line);
        }
    }

    public async Task<string?> LastLogLineAsync(string id, CancellationToken cancellationToken)
    {
        var lines = await LogLinesAsync(id, "5", cancellationToken);
        return lines.LastOrDefault(l => l.Trim().Length > 0);
    }

    /// <summary>Copies a volume's contents into <paramref name="directory"/> through a container that is created, never started; <paramref name="scratch"/> holds the archive meanwhile.</summary>
    public async Task CopyVolumeOutAsync(string volume, string image, string directory, string scratch, CancellationToken cancellationToken)
    {
        var helper = await CreateContainerAsync(new CreateContainerParameters
        {
            Image = image,
            Name = $"{RunId}-copy-{volume.GetHashCode(StringComparison.Ordinal):x8}",
            Labels = Labels(),
            Entrypoint = ["true"],
            HostConfig = new HostConfig
            {
                NetworkMode = "none",
                Mounts = [new Mount { Type = "volume", Source = volume, Target = "/volume", ReadOnly = true }],
            },
        }, cancellationToken);
        try
        {
            var archive = await Client.Containers.GetArchiveFromContainerAsync(helper, new GetArchiveFromContainerParameters { Path = "/volume/." }, false, cancellationToken);
            // Buffered to a file first: the tar reader stops short on the engine's response stream ("read past the end").
            await using (var stream = archive.Stream)
            await using (var file = File.Create(scratch))
            {
                await stream.CopyToAsync(file, cancellationToken);
            }

            Directory.CreateDirectory(directory);
            await TarFile.ExtractToDirectoryAsync(scratch, directory, overwriteFiles: true, cancellationToken);
        }
        finally
        {
            File.Delete(scratch);
            await RemoveContainerAsync(helper);
        }
    }

    public async Task RemoveContainerAsync(string id)
    {
        try
        {
            await Client.Containers.RemoveContainerAsync(id, new ContainerRemoveParameters { Force = true, RemoveVolumes = true }, CancellationToken.None);
        }
        catch (DockerContainerNotFoundException)
        {
        }
    }

    /// <summary>Removes every container, network and volume labelled with this run; safe to call twice. The leftovers' description, or null when none is left.</summary>
    public async Task<string?> RemoveRunAsync()
    {
        var filter = new Dictionary<string, IDictionary<string, bool>> { ["label"] = new Dictionary<string, bool> { [$"{RunLabel}={RunId}"] = true } };
        var problems = new List<string>();
        foreach (var container in await Client.Containers.ListContainersAsync(new ContainersListParameters { All = true, Filters = filter }))
        {
            await Try(() => RemoveContainerAsync(container.ID), problems);
        }

        foreach (var network in await Client.Networks.ListNetworksAsync(new NetworksListParameters { Filters = filter }))
        {
            await Try(() => Client.Networks.DeleteNetworkAsync(network.ID), problems);
        }

        var volumes = await Client.Volumes.ListAsync(new VolumesListParameters { Filters = filter });
        foreach (var volume in volumes.Volumes ?? [])
        {
            await Try(() => Client.Volumes.RemoveAsync(volume.Name, force: true), problems);
        }

        return problems.Count == 0 ? null : string.Join("; ", problems);
    }

    public void Dispose() => Client.Dispose();

    private static async Task Try(Func<Task> action, List<string> problems)
    {
        try
        {
            await action();
        }
        catch (DockerApiException ex)
        {
            problems.Add(ex.Message);
        }
    }

    private async Task<IReadOnlyList<string>> LogLinesAsync(string id, string tail, CancellationToken cancellationToken)
    {
        using var stream = await Client.Containers.GetContainerLogsAsync(id, false, new ContainerLogsParameters { ShowStdout = true, ShowStderr = true, Tail = tail }, cancellationToken);
        var text = new StringBuilder();
        var buffer = new byte[16 * 1024];
        var decoder = Encoding.UTF8.GetDecoder();
        var chars = new char[Encoding.UTF8.GetMaxCharCount(buffer.Length)];
        while (true)
        {
            var read = await stream.ReadOutputAsync(buffer, 0, buffer.Length, cancellationToken);
            if (read.EOF)
            {
                break;
            }

            var count = decoder.GetChars(buffer, 0, read.Count, chars, 0);
            text.Append(chars, 0, count);
        }

        return text.ToString().Split('\n').Select(l => l.TrimEnd('\r')).SkipLast(text.Length > 0 && text[^1] == '\n' ? 1 : 0).ToList();
    }
}

/// <summary>The engine, or an image the manifests name, is missing (exit 2).</summary>
internal sealed class RuntimeUnavailableException(string message) : Exception(message);
