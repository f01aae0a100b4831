using k8s.Models;

namespace Harness.KubeletStandIn.Probes;

/// <summary>
/// The probes of one running container instance, as the kubelet's prober workers run them: the startup probe first
/// (liveness and readiness wait until it succeeds), then liveness and readiness side by side, each after its own
/// initialDelaySeconds and every periodSeconds. A startup or liveness failure (failureThreshold in a row) completes
/// <see cref="Failure"/> with the reason: the pod kills the container and applies its restart policy. Readiness
/// only changes <see cref="Ready"/>. A restarted container gets a new instance: delays and counts start again.
/// </summary>
internal sealed class ContainerProbes(ProbeChecks checks, V1Container container, string podIp, string containerId, Action<string> log)
{
    private readonly TaskCompletionSource<string> _failure = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private volatile bool _started = container.StartupProbe is null;
    private volatile bool _ready;

    /// <summary>Completes with a reason when the startup or liveness probe fails; never completes otherwise.</summary>
    public Task<string> Failure => _failure.Task;

    public bool Started => _started;

    /// <summary>Started, and the readiness probe's state is success (or there is no readiness probe).</summary>
    public bool Ready => _started && (container.ReadinessProbe is null || _ready);

    public async Task RunAsync(CancellationToken cancellationToken)
    {
        try
        {
            if (container.StartupProbe is { } startup)
            {
                var state = await LoopAsync(ProbeKind.Startup, startup, stopWhen: s => s is not null, cancellationToken);
                if (state != true)
                {
                    return;
                }

                _started = true;
            }

            var liveness = container.LivenessProbe is { } l ? LoopAsync(ProbeKind.Liveness, l, stopWhen: s => s == false, cancellationToken) : Task.FromResult<bool?>(null);
            var readiness = container.ReadinessProbe is { } r ? LoopAsync(ProbeKind.Readiness, r, stopWhen: _ => false, cancellationToken) : Task.FromResult<bool?>(null);
            await Task.WhenAll(liveness, readiness);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
        }
    }

    private async Task<bool?> LoopAsync(ProbeKind kind, V1Probe probe, Func<bool?, bool> stopWhen, CancellationToken cancellationToken)
    {
        var settings = ProbeSettings.From(kind, probe);
        var counter = new ProbeCounter(settings);
        string? lastFailure = null;
        await Task.Delay(settings.InitialDelay, cancellationToken);
        while (true)
        {
            var result = await checks.CheckAsync(probe, container, podIp, containerId, settings.Timeout, cancellationToken);
            if (counter.Record(result.Success))
            {
                OnChange(kind, counter.State, result);
            }
            else if (!result.Success && result.Detail != lastFailure)
            {
                // As the kubelet's events: each new reason once, not every period.
                log($"{kind} probe failed: {result.Detail}");
            }

            lastFailure = result.Success ? null : result.Detail;

            if (stopWhen(counter.State))
            {
                return counter.State;
            }

            await Task.Delay(settings.Period, cancellationToken);
        }
    }

    private void OnChange(ProbeKind kind, bool? state, ProbeResult result)
    {
        switch (kind, state)
        {
            case (ProbeKind.Readiness, var ready):
                _ready = ready == true;
                log(ready == true ? "ready" : $"not ready: Readiness probe failed: {result.Detail}");
                break;
            case (ProbeKind.Startup, true):
                log("started (startup probe succeeded)");
                break;
            case (_, false):
                _failure.TrySetResult($"{kind} probe failed: {result.Detail}");
                break;
        }
    }
}
