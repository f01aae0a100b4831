using Harness.LoadTests.Hosting;

namespace Harness.LoadTests.Targets;

/// <summary>
/// The embedded default: the stub and the services started here as child processes on loopback ports, one
/// mode at a time so that no two modes compete for the cores.
/// </summary>
internal sealed class LocalTargets(IReadOnlyList<string> stacks, Action<string> log) : ITargetProvider
{
    private readonly Dictionary<string, List<LocalProcess>> _byMode = [];
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
            _stub = await LocalProcess.StartAsync("stub", "Harness.ThirdPartyStub", [], cancellationToken);
        }

        var started = new List<LocalProcess>();
        _byMode[mode] = started;
        var targets = new List<ServiceTarget>();
        foreach (var stack in stacks)
        {
            log($"starting the {stack} service in {mode} mode");
            var service = await LocalProcess.StartAsync(
                $"{stack} ({mode})",
                stack == Stacks.Soap ? "Harness.SoapService" : "Harness.GrpcService",
                [$"--Scheduling:Mode={mode}", $"--ThirdParty:BaseAddress={_stub.Address}"],
                cancellationToken);
            started.Add(service);
            targets.Add(new ServiceTarget(stack, mode, service.Address, service.MetricsAddress));
        }

        return targets;
    }

    public async Task ReleaseAsync(string mode)
    {
        if (_byMode.Remove(mode, out var processes))
        {
            foreach (var process in processes)
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
