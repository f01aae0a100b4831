using Harness.KubeletStandIn.Manifests;
using Harness.KubeletStandIn.Pods;
using k8s.Models;

namespace Harness.KubeletStandIn.Controllers;

internal enum JobState
{
    Suspended,
    Running,
    Complete,
    Failed,
}

/// <summary>
/// A Job, run as the Job controller runs it once it is not suspended: up to <c>parallelism</c> pods at once until
/// <c>completions</c> succeed (<see cref="JobPlan"/>); a failed pod is replaced after the controller's back-off until
/// more than <c>backoffLimit</c> have failed; <c>activeDeadlineSeconds</c>, counted from the start, fails the Job
/// and stops its pods. Indexed pods get the completion index as the annotation and label
/// <c>batch.kubernetes.io/job-completion-index</c> and, unless the container declares it, <c>JOB_COMPLETION_INDEX</c>.
/// </summary>
internal sealed class JobController(RunContext context, Workload workload)
{
    public const string StageLabel = "harness/stage";

    private readonly List<PodRunner> _pods = [];
    private readonly Lock _lock = new();
    private JobPlan? _plan;

    public string Name => workload.Name;

    public V1Job Job => workload.Job!;

    public string? Stage => Job.Metadata.Labels is { } l && l.TryGetValue(StageLabel, out var stage) ? stage : null;

    public JobState State { get; private set; } = JobState.Suspended;

    public string? Reason { get; private set; }

    public IReadOnlyList<PodRunner> Pods
    {
        get
        {
            lock (_lock)
            {
                return [.. _pods];
            }
        }
    }

    public string Describe() => $"Job {Name}: {State switch
    {
        JobState.Running => _plan!.Describe(),
        JobState.Failed => $"Failed ({Reason})",
        _ => State.ToString(),
    }}";

    /// <summary>Runs the Job to Complete or Failed; true when Complete. <paramref name="stop"/> ends it early (the run's end or an interruption).</summary>
    public async Task<bool> RunAsync(CancellationToken stop)
    {
        var spec = Job.Spec;
        var indexed = spec.CompletionMode == "Indexed";
        var plan = _plan = new JobPlan(spec.Completions, spec.Parallelism, indexed, spec.BackoffLimit);
        if (indexed)
        {
            DeclareCompletionIndex(workload.Pod);
        }

        State = JobState.Running;
        var uid = Guid.NewGuid().ToString();
        var grace = TimeSpan.FromSeconds(workload.Pod.TerminationGracePeriodSeconds ?? 30);
        var running = new Dictionary<Task<PodPhase>, (PodRunner Pod, int Index, CancellationTokenSource Stop)>();
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(stop);
        if (spec.ActiveDeadlineSeconds is { } seconds)
        {
            deadline.CancelAfter(TimeSpan.FromSeconds(seconds));
        }

        var retryAt = DateTime.UtcNow;
        context.Log.Line($"Job {Name}: started ({plan.Completions} completion(s), parallelism {plan.Parallelism}, backoffLimit {plan.BackoffLimit}{(spec.ActiveDeadlineSeconds is { } d ? $", activeDeadlineSeconds {d}" : "")})");
        try
        {
            while (true)
            {
                while (DateTime.UtcNow >= retryAt && plan.Next() is { } index)
                {
                    var pod = new PodRunner(context, workload, PodIdentity.ForJob(workload, uid, indexed ? index : null));
                    var podStop = CancellationTokenSource.CreateLinkedTokenSource(deadline.Token);
                    plan.Started(index);
                    lock (_lock)
                    {
                        _pods.Add(pod);
                    }

                    context.Log.Line($"Job {Name}: pod {pod.Name}{(indexed ? $" (index {index})" : "")}");
                    running[pod.RunAsync(podStop.Token)] = (pod, index, podStop);
                }

                if (plan.Complete)
                {
                    State = JobState.Complete;
                    context.Log.Line($"Job {Name}: Complete ({plan.Describe()})");
                    return true;
                }

                var wake = retryAt > DateTime.UtcNow ? Task.Delay(retryAt - DateTime.UtcNow, deadline.Token) : Task.Delay(Timeout.Infinite, deadline.Token);
                var finished = await Task.WhenAny(running.Keys.Cast<Task>().Append(wake));
                deadline.Token.ThrowIfCancellationRequested();
                if (finished is not Task<PodPhase> podTask)
                {
                    continue;
                }

                var (done, doneIndex, doneStop) = running[podTask];
                running.Remove(podTask);
                doneStop.Dispose();
                if (podTask.Result == PodPhase.Succeeded)
                {
                    plan.Succeed(doneIndex);
                    continue;
                }

                plan.Fail(doneIndex);
                if (plan.BackoffLimitExceeded)
                {
                    return await FailAsync("BackoffLimitExceeded: Job has reached the specified backoff limit", running, grace);
                }

                retryAt = DateTime.UtcNow + plan.RetryDelay;
                context.Log.Line($"Job {Name}: pod {done.Name} failed; a new pod in {plan.RetryDelay.TotalSeconds:0} s ({plan.Describe()})");
            }
        }
        catch (OperationCanceledException) when (!stop.IsCancellationRequested && deadline.IsCancellationRequested)
        {
            return await FailAsync($"DeadlineExceeded: Job was active longer than specified deadline ({spec.ActiveDeadlineSeconds} s)", running, grace);
        }
        finally
        {
            // Cancelled before disposed: a disposed linked source no longer hears its parent, so a pod whose link had
            // not fired yet when the run stopped would keep waiting on its containers.
            foreach (var (_, _, podStop) in running.Values)
            {
                await podStop.CancelAsync();
                podStop.Dispose();
            }
        }
    }

    private async Task<bool> FailAsync(string reason, Dictionary<Task<PodPhase>, (PodRunner Pod, int Index, CancellationTokenSource Stop)> running, TimeSpan grace)
    {
        State = JobState.Failed;
        Reason = reason;
        context.Log.Line($"Job {Name}: Failed: {reason}");
        foreach (var (pod, _, podStop) in running.Values)
        {
            await podStop.CancelAsync();
            await pod.StopAsync(grace);
        }

        return false;
    }

    // The Job controller adds the variable to every container that does not declare it (Kubernetes 1.22+).
    private static void DeclareCompletionIndex(V1PodSpec pod)
    {
        foreach (var container in (pod.InitContainers ?? []).Concat(pod.Containers))
        {
            container.Env ??= [];
            if (container.Env.All(e => e.Name != PodIdentity.CompletionIndexVariable))
            {
                container.Env.Add(new V1EnvVar
                {
                    Name = PodIdentity.CompletionIndexVariable,
                    ValueFrom = new V1EnvVarSource { FieldRef = new V1ObjectFieldSelector { FieldPath = $"metadata.annotations['{PodIdentity.CompletionIndexKey}']" } },
                });
            }
        }
    }
}
