using Docker.DotNet;
using Docker.DotNet.Models;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Targets;

namespace Harness.LoadTests.Containers;

/// <summary>
/// <c>--fault</c>: kills, pauses or restarts a series' container at the planned moment, and records the fault's
/// window as <c>fault-start</c>/<c>fault-end</c> events, which the report shades.
/// </summary>
internal sealed class FaultInjector(IDockerClient docker, Action<string> log)
{
    /// <summary>Waits for <see cref="FaultPlan.At"/> after the series' start, then injects; a series that ends first meets no fault.</summary>
    public async Task InjectAsync(string containerId, FaultPlan plan, SeriesWatch series, CancellationToken cancellationToken)
    {
        try
        {
            await Task.Delay(plan.At, cancellationToken);
            var name = plan.Kind.ToString().ToLowerInvariant();
            Record(series, "fault-start", $"{plan} on the container of {series.SeriesId}");
            log($"fault: {name} the container of {series.SeriesId}");
            switch (plan.Kind)
            {
                case FaultKind.Kill:
                    await docker.Containers.KillContainerAsync(containerId, new ContainerKillParameters { Signal = "SIGKILL" }, cancellationToken);
                    if (plan.Duration is { } down)
                    {
                        await Task.Delay(down, cancellationToken);
                        await docker.Containers.StartContainerAsync(containerId, new ContainerStartParameters(), cancellationToken);
                        Record(series, "fault-end", $"started again after {down.TotalSeconds:0.#} s");
                    }

                    break;
                case FaultKind.Pause:
                    await docker.Containers.PauseContainerAsync(containerId, cancellationToken);
                    try
                    {
                        await Task.Delay(plan.Duration!.Value, cancellationToken);
                    }
                    finally
                    {
                        // Never leave it frozen, even when the series is cut short.
                        await docker.Containers.UnpauseContainerAsync(containerId, CancellationToken.None);
                    }

                    Record(series, "fault-end", $"unpaused after {plan.Duration.Value.TotalSeconds:0.#} s");
                    break;
                case FaultKind.Restart:
                    await docker.Containers.RestartContainerAsync(containerId, new ContainerRestartParameters { WaitBeforeKillSeconds = 1 }, cancellationToken);
                    Record(series, "fault-end", "restarted");
                    break;
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The series ended before the fault was due (or while it lasted).
        }
        catch (DockerApiException ex)
        {
            Record(series, "note", $"fault not injected: {ex.Message}");
        }
    }

    private static void Record(SeriesWatch series, string kind, string message)
    {
        try
        {
            series.Recorder.RecordEvent(new RunEvent(series.RunClock.Elapsed.TotalSeconds, kind, series.SeriesId, message));
        }
        catch (InvalidOperationException)
        {
            // The run was already completed.
        }
    }
}
