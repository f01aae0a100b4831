using Harness.KubeletStandIn.Pods;

namespace Harness.KubeletStandIn.Controllers;

internal enum ClusterOutcome
{
    /// <summary>Every Job that ran succeeded; the volumes were copied.</summary>
    Succeeded,

    /// <summary>A Job failed (the volumes were still copied), or a Deployment never became available (they were not).</summary>
    Failed,

    /// <summary>The run's --timeout passed; nothing was copied (a folder may still have been written).</summary>
    TimedOut,
}

/// <summary>
/// The run, in the order scripts/k8s-run.sh drives a cluster: everything "applied" at once (Deployments start, Jobs
/// that are not suspended start, and so do suspended ones of <c>harness/stage=load</c>, which k8s-run.sh waits for
/// like the others); then the Deployments must be Available within 10 minutes; then the load Jobs must end; then
/// each <c>harness/stage=merge</c> Job is resumed and waited for; then each <c>harness/stage=collect</c> Job is resumed
/// until its pod is ready, and the volumes are copied out. A suspended Job of any other stage stays suspended, as
/// k8s-run.sh leaves it. A progress line every 10 s says what runs and the load pod's latest log line.
/// </summary>
internal sealed class Cluster(RunContext context)
{
    public const string LoadStage = "load";
    public const string MergeStage = "merge";
    public const string CollectStage = "collect";

    private static readonly TimeSpan AvailableBound = TimeSpan.FromMinutes(10);
    private static readonly TimeSpan ProgressEvery = TimeSpan.FromSeconds(10);
    private static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(500);

    private readonly List<DeploymentController> _deployments = [];
    private readonly List<JobController> _jobs = [];
    private readonly List<Task> _running = [];

    public IEnumerable<PodRunner> Pods => _deployments.SelectMany(d => d.Pods).Concat(_jobs.SelectMany(j => j.Pods));

    public IReadOnlyList<DeploymentController> Deployments => _deployments;

    // Deployments scaled to 0 run nothing; the progress lines name them once, in a count.
    private string DeploymentStatus =>
        string.Join("; ", _deployments.Where(d => d.Replicas > 0).Select(d => d.Describe()))
        + (_deployments.Count(d => d.Replicas == 0) is > 0 and var idle ? $" ({idle} scaled to 0)" : "");

    /// <summary>Runs every stage; <paramref name="stop"/> is the run's bound and Ctrl+C. Leaves the pods running: <see cref="StopAsync"/> ends their tasks.</summary>
    public async Task<ClusterOutcome> RunAsync(string output, CancellationToken stop)
    {
        await CreateNetworksAndClaimsAsync(stop);
        foreach (var workload in context.Manifests.Workloads)
        {
            if (workload.Deployment is not null)
            {
                _deployments.Add(new DeploymentController(context, workload));
            }
            else
            {
                _jobs.Add(new JobController(context, workload));
            }
        }

        var first = _jobs.Where(j => j.Job.Spec.Suspend != true || j.Stage == LoadStage).ToList();
        var merge = _jobs.Where(j => j.Job.Spec.Suspend == true && j.Stage == MergeStage).ToList();
        var collect = _jobs.Where(j => j.Job.Spec.Suspend == true && j.Stage == CollectStage).ToList();
        foreach (var left in _jobs.Except(first).Except(merge).Except(collect))
        {
            context.Log.Line($"Job {left.Name} stays suspended: only harness/stage load, merge and collect Jobs are resumed, as k8s-run.sh does");
        }

        foreach (var deployment in _deployments)
        {
            deployment.Start(stop);
            _running.Add(deployment.StoppedAsync());
        }

        var firstRuns = Start(first, stop);
        if (!await WaitAvailableAsync(stop))
        {
            return ClusterOutcome.Failed;
        }

        var succeeded = await WaitJobsAsync(first, firstRuns, stop);
        succeeded &= await WaitJobsAsync(merge, Start(merge, stop), stop);
        var collecting = Start(collect, stop);
        succeeded &= await WaitCollectAsync(collect, collecting, stop);
        await Output.CopyClaimsAsync(context, output, stop);
        return succeeded ? ClusterOutcome.Succeeded : ClusterOutcome.Failed;
    }

    /// <summary>Waits, bounded, for every pod task once the run's stop is cancelled.</summary>
    public async Task StopAsync()
    {
        try
        {
            await Task.WhenAll(_running).WaitAsync(TimeSpan.FromSeconds(30));
        }
        catch (Exception ex) when (ex is TimeoutException or OperationCanceledException)
        {
        }
    }

    private async Task CreateNetworksAndClaimsAsync(CancellationToken stop)
    {
        foreach (var ns in context.Manifests.Namespaces)
        {
            var name = $"{context.Docker.RunId}-{ns}";
            await context.Docker.CreateNetworkAsync(name, stop);
            context.Networks[ns] = name;
            context.Log.Line($"Namespace {ns}: network {name}");
        }

        foreach (var claim in context.Manifests.Claims)
        {
            var ns = Manifests.ManifestSet.NamespaceOf(claim.Metadata);
            var name = $"{context.Docker.RunId}-pvc-{ns}-{claim.Metadata.Name}";
            await context.Docker.CreateVolumeAsync(name, null, context.Docker.Labels(), stop);
            context.ClaimVolumes[RunContext.ClaimKey(ns, claim.Metadata.Name)] = name;
            var modes = string.Join(", ", claim.Spec?.AccessModes ?? ["ReadWriteOnce"]);
            context.Log.Line($"PersistentVolumeClaim {claim.Metadata.Name}: volume {name} ({modes}; one node, so access modes are recorded, not enforced; no size limit)");
        }
    }

    private List<Task<bool>> Start(List<JobController> jobs, CancellationToken stop)
    {
        var runs = jobs.Select(j => j.RunAsync(stop)).ToList();
        _running.AddRange(runs);
        return runs;
    }

    private async Task<bool> WaitAvailableAsync(CancellationToken stop)
    {
        if (_deployments.Count == 0)
        {
            return true;
        }

        context.Log.Line("waiting for the Deployments to be Available (at most 10 minutes)");
        var started = DateTime.UtcNow;
        var last = DateTime.UtcNow;
        while (!_deployments.All(d => d.Available))
        {
            var failed = _deployments.FirstOrDefault(d => d.Failure is not null);
            if (failed is not null || DateTime.UtcNow - started > AvailableBound)
            {
                var why = failed?.Failure ?? "not Available within 10 minutes";
                context.Log.Error($"the Deployments did not become available: {why}; {DeploymentStatus}");
                return false;
            }

            await Task.Delay(Poll, stop);
            last = await ProgressAsync(last, DeploymentStatus, null, stop);
        }

        context.Log.Line($"Deployments Available: {DeploymentStatus}");
        return true;
    }

    private async Task<bool> WaitJobsAsync(List<JobController> jobs, List<Task<bool>> runs, CancellationToken stop)
    {
        var last = DateTime.UtcNow;
        while (!runs.All(r => r.IsCompleted))
        {
            await Task.WhenAny(Task.WhenAll(runs), Task.Delay(Poll, stop));
            stop.ThrowIfCancellationRequested();
            last = await ProgressAsync(last, string.Join("; ", jobs.Select(j => j.Describe())), jobs, stop);
        }

        return (await Task.WhenAll(runs)).All(ok => ok);
    }

    /// <summary>A collect Job has done its part once its pod runs (k8s-run.sh copies from it then) or once it ended well.</summary>
    private async Task<bool> WaitCollectAsync(List<JobController> jobs, List<Task<bool>> runs, CancellationToken stop)
    {
        var last = DateTime.UtcNow;
        while (true)
        {
            var done = jobs.Select((j, i) => j.State == JobState.Complete || j.Pods.Any(p => p.Ready) || runs[i].IsCompleted).ToList();
            if (done.All(d => d))
            {
                var failed = jobs.Where(j => j.State == JobState.Failed).ToList();
                foreach (var job in jobs.Except(failed))
                {
                    context.Log.Line($"Job {job.Name}: its pod runs; copying the volumes");
                }

                return failed.Count == 0;
            }

            await Task.Delay(Poll, stop);
            last = await ProgressAsync(last, string.Join("; ", jobs.Select(j => j.Describe())), jobs, stop);
        }
    }

    private async Task<DateTime> ProgressAsync(DateTime last, string status, List<JobController>? jobs, CancellationToken stop)
    {
        if (DateTime.UtcNow - last < ProgressEvery)
        {
            return last;
        }

        var line = "waiting: " + status;
        var pod = jobs?.SelectMany(j => j.Pods).LastOrDefault(p => p.Phase is PodPhase.Running or PodPhase.Pending);
        if (pod?.Containers.LastOrDefault()?.Id is { } id)
        {
            try
            {
                var latest = await context.Docker.LastLogLineAsync(id, stop);
                line += $" | {pod.Name}: {Cut(latest ?? "(no output yet)")}";
            }
            catch (Docker.DotNet.DockerApiException)
            {
            }
        }

        context.Log.Line(line);
        return DateTime.UtcNow;
    }

    private static string Cut(string text) => text.Length > 160 ? text[..160] : text;
}
