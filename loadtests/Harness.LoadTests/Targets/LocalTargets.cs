using Harness.Agreements;
using Harness.LoadTests.Diagnostics;
using Harness.LoadTests.Hosting;
using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Targets;

/// <summary>
/// The embedded default: the stub and the services started here as child processes on loopback ports, one
/// mode at a time so that no two modes compete for the cores. While a series runs it watches the service: one that
/// exits (a crash, the kernel's OOM killer) is a <c>target-down</c> event naming its exit code and its last words, so
/// the report says why every later request failed instead of leaving a wall of connection errors unexplained.
/// With <c>--service-cpus</c> the stub and the services run on those processors alone (<see cref="CpuAffinity"/>).
/// </summary>
internal sealed class LocalTargets(IReadOnlyList<string> stacks, Action<string> log, CpuAffinity? affinity = null) : ITargetProvider, ISeriesWatcher
{
    // Written only between series (acquire, release), read by the watcher during one.
    private readonly Dictionary<string, List<(ServiceTarget Target, LocalProcess Process)>> _byMode = [];
    private LocalProcess? _stub;

    public async Task<IReadOnlyList<ServiceTarget>> AcquireAsync(string mode, CancellationToken cancellationToken)
    {
        if (_stub is null || _stub.HasExited)
        {
            if (_stub is not null)
            {
                await _stub.DisposeAsync();
            }

            log("starting the third-party stub");
            _stub = await LocalProcess.StartAsync("stub", "Harness.ThirdPartyStub", [], cancellationToken, affinity: affinity);
        }

        var started = new List<(ServiceTarget Target, LocalProcess Process)>();
        _byMode[mode] = started;
        var targets = new List<ServiceTarget>();
        foreach (var stack in stacks)
        {
            log(affinity is null ? $"starting the {stack} service in {mode} mode" : $"starting the {stack} service in {mode} mode on processors {affinity.List}");
            var service = await LocalProcess.StartAsync(
                $"{stack} ({mode})",
                stack == Stacks.Soap ? "Harness.SoapService" : "Harness.GrpcService",
                [SchedulingModes.ModeArgument(mode), $"--ThirdParty:BaseAddress={_stub.Address}"],
                cancellationToken,
                affinity: affinity);
            // Its runtime is attached to by default (--runtime-events off: not): our services' /metrics gives the
            // ThreadPool's level, the runtime's events add why it moved.
            var target = new ServiceTarget(stack, mode, service.Address, service.MetricsAddress)
            {
                Runtime = service.ServicePid is { } pid ? RuntimeEndpoint.ForProcess(pid) : null,
            };
            started.Add((target, service));
            targets.Add(target);
        }

        return targets;
    }

    public async Task WatchAsync(ServiceTarget target, SeriesWatch series, CancellationToken cancellationToken)
    {
        if (!_byMode.TryGetValue(target.Mode, out var started) || started.Find(s => s.Target == target).Process is not { } service)
        {
            return;
        }

        try
        {
            await service.WaitForExitAsync(cancellationToken);
        }
        catch (OperationCanceledException)
        {
            return; // the series ended with its service alive
        }

        if (cancellationToken.IsCancellationRequested)
        {
            return; // killed by an interrupted run's own stop, not a death of its own
        }

        var message = ExitMessage(service);
        log(message);
        series.Recorder.RecordEvent(new RunEvent(series.RunClock.Elapsed.TotalSeconds, "target-down", series.SeriesId, message));
    }

    /// <summary>"soap (threadpool) exited with code 134 during the series: Unhandled exception. …": the line that says why, where there is one.</summary>
    private static string ExitMessage(LocalProcess service)
    {
        var tail = service.OutputTail(40);
        var why = tail.FirstOrDefault(line => line.StartsWith("Unhandled exception", StringComparison.Ordinal)) ?? tail.LastOrDefault();
        return $"{service.Name} exited with code {service.ExitCode} during the series{(why is null ? "" : $": {why}")}";
    }

    public async Task ReleaseAsync(string mode)
    {
        if (_byMode.Remove(mode, out var processes))
        {
            foreach (var (_, process) in processes)
            {
                await process.DisposeAsync();
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var mode in _byMode.Keys.ToList())
        {
            await ReleaseAsync(mode);
        }

        if (_stub is not null)
        {
            await _stub.DisposeAsync();
            _stub = null;
        }
    }
}
