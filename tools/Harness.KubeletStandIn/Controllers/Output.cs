using Docker.DotNet;
using Harness.KubeletStandIn.Cli;
using Harness.KubeletStandIn.Pods;

namespace Harness.KubeletStandIn.Controllers;

/// <summary>
/// What a run leaves in <c>--output DIR</c>, as k8s-run.sh leaves its report folder: the volumes' contents (one
/// claim: its files straight into DIR, as the runner's <c>--output</c> would; several: DIR/CLAIM/), every pod's logs
/// in DIR/logs/POD.log (each container's lines prefixed with its name, init containers first), and the manifests
/// as run (after --agents/--duration/--runner-arg) in DIR/manifests.yaml.
/// </summary>
internal static class Output
{
    /// <summary>Refuses a DIR that holds anything: a run must not mix its files with another's.</summary>
    public static void Check(string directory)
    {
        var full = Path.GetFullPath(directory);
        if (Directory.Exists(full) && Directory.EnumerateFileSystemEntries(full).Any())
        {
            throw new UsageException($"--output {directory} is not empty; name a folder that is absent or empty");
        }

        if (File.Exists(full))
        {
            throw new UsageException($"--output {directory} is a file; name a folder that is absent or empty");
        }
    }

    public static async Task CopyClaimsAsync(RunContext context, string directory, CancellationToken cancellationToken)
    {
        var image = context.Manifests.Workloads.SelectMany(w => w.AllContainers).First().Image;
        foreach (var (claim, volume) in context.ClaimVolumes)
        {
            var target = context.ClaimVolumes.Count == 1 ? directory : Path.Combine(directory, claim.Split('/')[1]);
            await context.Docker.CopyVolumeOutAsync(volume, image, target, Path.Combine(context.TemporaryDirectory, "volume.tar"), cancellationToken);
            context.Log.Line($"copied PersistentVolumeClaim {claim} to {target}");
        }
    }

    public static async Task SaveLogsAsync(RunContext context, IEnumerable<PodRunner> pods, string directory, CancellationToken cancellationToken)
    {
        var logs = Path.Combine(directory, "logs");
        Directory.CreateDirectory(logs);
        foreach (var pod in pods)
        {
            try
            {
                await using var writer = new StreamWriter(Path.Combine(logs, pod.Name + ".log"));
                foreach (var container in pod.Containers.OrderBy(c => c.Init ? 0 : 1))
                {
                    await context.Docker.WriteLogsAsync(container.Id, writer, $"[{container.Name}] ", cancellationToken);
                }
            }
            catch (Exception ex) when (ex is DockerApiException or IOException)
            {
                context.Log.Warning($"logs of pod {pod.Name} incomplete: {ex.Message}");
            }
        }
    }
}
