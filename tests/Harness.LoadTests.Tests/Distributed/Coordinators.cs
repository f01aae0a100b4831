using System.Net;
using Harness.LoadTests.Distributed.Coordination;

namespace Harness.LoadTests.Tests.Distributed;

/// <summary>A coordinator served in the test's own process on a free loopback port, its state at hand.</summary>
internal sealed class Coordinators : IAsyncDisposable
{
    private readonly CoordinatorServer _server;

    private Coordinators(CoordinatorState state, CoordinatorServer server, string agentsFolder)
    {
        State = state;
        _server = server;
        AgentsFolder = agentsFolder;
    }

    public CoordinatorState State { get; }

    public Uri Address => _server.Address;

    /// <summary>Where uploads are unpacked.</summary>
    public string AgentsFolder { get; }

    public static async Task<Coordinators> StartAsync(int count, TimeSpan? agentTimeout = null, TimeProvider? time = null)
    {
        var state = new CoordinatorState(count, "test-run", agentTimeout ?? TimeSpan.FromMinutes(1), time ?? TimeProvider.System);
        var agents = Path.Combine(HarnessRun.TempFolder(), "agents");
        var server = await CoordinatorServer.StartAsync(state, new IPEndPoint(IPAddress.Loopback, 0), agents, (_, _, _) => { }, CancellationToken.None);
        return new Coordinators(state, server, agents);
    }

    public ValueTask DisposeAsync() => _server.DisposeAsync();
}

/// <summary>A clock the test moves by hand; timers still run on the system's.</summary>
internal sealed class ManualClock(DateTimeOffset start) : TimeProvider
{
    public DateTimeOffset Now { get; set; } = start;

    public override DateTimeOffset GetUtcNow() => Now;

    public void Advance(TimeSpan by) => Now += by;
}
