using Docker.DotNet;
using Harness.KubeletStandIn.Cli;
using Harness.KubeletStandIn.Controllers;
using Harness.KubeletStandIn.Manifests;
using Harness.KubeletStandIn.Pods;
using Harness.KubeletStandIn.Runtime;

namespace Harness.KubeletStandIn;

/// <summary>
/// One run: render the overlay, parse it strictly, apply the options, check what cannot run, then run it under
/// Docker (<see cref="Cluster"/>), save the logs, copy the volumes out, and remove everything, whatever happened.
/// </summary>
internal sealed class StandIn(Options options, RunLog log)
{
    public const int Success = 0;
    public const int Failure = 1;
    public const int BadUsage = 2;
    public const int Interrupted = 130;

    private static readonly TimeSpan DeadlineMargin = TimeSpan.FromMinutes(10);
    private static readonly TimeSpan LogsBound = TimeSpan.FromMinutes(1);

    /// <summary>Liveness (and startup) probe restarts over the run, for the last line.</summary>
    public int LivenessRestarts { get; private set; }

    public async Task<int> RunAsync(CancellationToken interrupt)
    {
        var directory = Kustomize.LocateOverlay(options.Overlay);
        var output = Path.GetFullPath(options.Output);
        Output.Check(output);
        log.Line($"rendering {directory} with kubectl kustomize");
        var manifests = ManifestSet.Parse(Kustomize.Render(directory));
        foreach (var line in Adjustments.Apply(manifests, options))
        {
            log.Line(line);
        }

        foreach (var ignored in manifests.Ignored)
        {
            log.Line($"{ignored}: not applied (nothing to run)");
        }

        var (errors, warnings) = Preflight.Check(manifests);
        foreach (var warning in warnings)
        {
            log.Warning(warning);
        }

        if (errors.Count > 0)
        {
            throw new ManifestException(string.Join(Environment.NewLine + "error: ", errors));
        }

        Directory.CreateDirectory(output);
        var deadlines = manifests.Jobs.Sum(j => j.Spec.ActiveDeadlineSeconds ?? 0);
        var bound = options.Timeout ?? TimeSpan.FromSeconds(deadlines) + DeadlineMargin;
        await File.WriteAllTextAsync(Path.Combine(output, "manifests.yaml"), manifests.Serialize(), interrupt);

        using var docker = await DockerRuntime.ConnectAsync(interrupt);
        foreach (var image in manifests.Workloads.SelectMany(w => w.AllContainers).Select(c => c.Image).Distinct(StringComparer.Ordinal))
        {
            await docker.ImageAsync(image, interrupt);
        }

        var temporary = Directory.CreateTempSubdirectory("kubelet-stand-in-").FullName;
        var context = new RunContext(docker, manifests, log, temporary);
        var cluster = new Cluster(context);
        log.Line($"run {docker.RunId} on {docker.Endpoint} (bound: {Durations.Format(bound)}); output: {output}");
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(interrupt);
        stop.CancelAfter(bound);
        var code = Failure;
        try
        {
            code = await cluster.RunAsync(output, stop.Token) switch
            {
                ClusterOutcome.Succeeded => Success,
                _ => Failure,
            };
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            code = interrupt.IsCancellationRequested ? Interrupted : Failure;
            log.Error(interrupt.IsCancellationRequested
                ? "interrupted; stopping the pods"
                : $"the run did not finish within {Durations.Format(bound)}; raise --timeout (nothing was copied: a folder may still have been written)");
        }
        catch (Exception ex) when (ex is DockerApiException or IOException or HttpRequestException)
        {
            log.Error($"the Docker engine failed the run: {ex.Message}");
        }
        finally
        {
            await stop.CancelAsync();
            await cluster.StopAsync();
            LivenessRestarts = context.LivenessRestarts;
            await SaveLogsAsync(context, cluster, output);
            Report(cluster);
            if (options.Keep)
            {
                log.Line($"--keep: left run {docker.RunId} in place; remove it with: {Cleanup.ByHand(docker.RunId)}; rm -rf {temporary}");
            }
            else
            {
                await Cleanup.RunAsync(docker, temporary, log);
            }
        }

        log.Line(code == Success ? $"done: every Job succeeded; output: {output}" : $"done: failed (exit {code}); logs: {Path.Combine(output, "logs")}");
        return code;
    }

    private async Task SaveLogsAsync(RunContext context, Cluster cluster, string output)
    {
        using var bounded = new CancellationTokenSource(LogsBound);
        try
        {
            await Output.SaveLogsAsync(context, cluster.Pods, output, bounded.Token);
        }
        catch (OperationCanceledException)
        {
            log.Warning("saving the pods' logs took longer than a minute; some are missing");
        }
    }

    // A service that restarted mid-run measured two processes, as k8s-run.sh warns.
    private void Report(Cluster cluster)
    {
        foreach (var pod in cluster.Pods.Where(p => p.LivenessRestarts + p.ExitRestarts > 0))
        {
            log.Warning($"pod {pod.Name} restarted: {pod.LivenessRestarts} after a failed probe, {pod.ExitRestarts} after an exit; its figures are not comparable");
        }
    }
}
