using Harness.KubeletStandIn.Manifests;
using Harness.KubeletStandIn.Pods;

namespace Harness.KubeletStandIn.Controllers;

/// <summary>
/// A Deployment: <c>replicas</c> pods (0: none) with restartPolicy Always, running until the run ends. It is
/// Available when every replica is Ready (a simplification of maxUnavailable: the harness's Deployments have one
/// replica). A pod that fails to start (a config error) is not replaced: the same spec would fail again, and the run
/// reports it instead of looping.
/// </summary>
internal sealed class DeploymentController(RunContext context, Workload workload)
{
    private readonly List<PodRunner> _pods = [];
    private readonly List<Task<PodPhase>> _runs = [];

    public string Name => workload.Name;

    public int Replicas => Math.Max(0, workload.Deployment!.Spec.Replicas ?? 1);

    public IReadOnlyList<PodRunner> Pods => _pods;

    public bool Available => _pods.Count(p => p.Ready) >= Replicas;

    /// <summary>Why the Deployment cannot become available, when one of its pods failed for good.</summary>
    public string? Failure => _pods.FirstOrDefault(p => p.Phase == PodPhase.Failed) is { } failed ? $"pod {failed.Name}: {failed.Reason}" : null;

    public int LivenessRestarts => _pods.Sum(p => p.LivenessRestarts);

    public int ExitRestarts => _pods.Sum(p => p.ExitRestarts);

    public string Describe() => $"Deployment {Name}: {_pods.Count(p => p.Ready)}/{Replicas} ready";

    public void Start(CancellationToken stop)
    {
        for (var i = 0; i < Replicas; i++)
        {
            var pod = new PodRunner(context, workload, PodIdentity.ForDeployment(workload));
            _pods.Add(pod);
            context.Log.Line($"Deployment {Name}: pod {pod.Name}");
            _runs.Add(pod.RunAsync(stop));
        }
    }

    /// <summary>Waits for the pods' tasks after the run's stop, so none outlives the run.</summary>
    public Task StoppedAsync() => Task.WhenAll(_runs);
}
