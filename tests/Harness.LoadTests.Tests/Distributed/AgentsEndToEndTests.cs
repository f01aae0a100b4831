using Harness.LoadTests.Distributed;
using Harness.LoadTests.Hosting;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;

namespace Harness.LoadTests.Tests.Distributed;

/// <summary>A distributed run as users start one: agent processes on loopback against a running service, then <c>harness merge</c>.</summary>
[Trait("Category", "EndToEnd")]
public sealed class AgentsEndToEndTests
{
    [Fact]
    public async Task ThreeAgents_StartedByACoordinator_UploadTheirRuns_WhichItMergesIntoOneReport()
    {
        // Arrange: one service, loaded as two modes (two series, so the agents also meet between series).
        await using var service = await LocalProcess.StartAsync("grpc", "Harness.GrpcService", ["--Scheduling:Mode=iocp"], CancellationToken.None);
        var output = HarnessRun.TempFolder();
        var port = LoopbackPorts.Free(1)[0];
        using var coordinator = HarnessProcess.Start(
            "coordinate", "--agents", "3", "--listen", $"127.0.0.1:{port}", "--run-id", "e2e", "--agent-timeout", "60s", "--output", Path.Combine(output, "coordinator"));
        string[] Agent(int index) =>
        [
            "run", "--agent", $"{index}/3", "--coordinator", $"http://127.0.0.1:{port}",
            "--target", $"grpc={service.Address},metrics={service.AdminAddress},mode=first",
            "--target", $"grpc={service.Address},metrics={service.AdminAddress},mode=second",
            "--operations", "compute", "--iterations", "100000", "--profile", "constant", "--time-scale", "0.03", "--users", "4",
            "--output", Path.Combine(output, $"agent{index}"),
        ];

        // Act: the agents may start before the coordinator listens; they keep trying.
        var agents = Enumerable.Range(0, 3).Select(i => HarnessProcess.Start(Agent(i))).ToList();
        try
        {
            foreach (var agent in agents)
            {
                await agent.WaitForExitAsync(TimeSpan.FromMinutes(3));
            }

            await coordinator.WaitForExitAsync(TimeSpan.FromMinutes(1));

            // Assert
            Assert.All(agents, a => Assert.True(a.ExitCode == 0, a.Output));
            Assert.True(coordinator.ExitCode == 0, coordinator.Output);
            var merged = Path.Combine(output, "coordinator", "e2e");
            Assert.True(File.Exists(Path.Combine(merged, "index.html")));
            Assert.True(File.Exists(Path.Combine(merged, "summary.md")));
            var runs = Enumerable.Range(0, 3).Select(i => RawRunReader.Read(Path.Combine(merged, "agents", AgentSettings.Name(i, 3)))).ToList();
            var run = RawRunReader.Read(merged);
            Assert.Equal(["grpc-compute-first", "grpc-compute-second"], run.Manifest.Series.Select(s => s.Id));
            foreach (var series in run.Manifest.Series)
            {
                var perAgent = runs.Select(r => r.Timelines[series.Id].Sum(s => s.Requests)).ToList();
                Assert.All(perAgent, requests => Assert.True(requests > 0, $"{series.Id}: an agent made no requests ({string.Join(", ", perAgent)})"));
                Assert.Equal(perAgent.Sum(), run.Timelines[series.Id].Sum(s => s.Requests));

                // 4 users split 2, 1, 1; only the lead scrapes the service and calibrates.
                Assert.Equal(4, run.Timelines[series.Id].Max(s => s.Users));
                Assert.Equal([2, 1, 1], runs.Select(r => r.Timelines[series.Id].Max(s => s.Users)));
                // Every agent records its own runner figures (harness_runner_*); only the lead has the service's.
                Assert.Contains(runs[0].Timelines[series.Id], s => ServerMetrics.HasTarget(s.Server));
                Assert.All(runs.Skip(1), r => Assert.All(r.Timelines[series.Id], s => Assert.False(ServerMetrics.HasTarget(s.Server), string.Join(", ", s.Server.Keys))));
                Assert.NotNull(runs[0].Manifest.Series.Single(s => s.Id == series.Id).IdealLatencyMs);
                Assert.Null(runs[1].Manifest.Series.Single(s => s.Id == series.Id).IdealLatencyMs);

                // The merged report says how closely the agents started each series.
                var started = Assert.Single(run.Events, e => e.Kind == "agents-started" && e.SeriesId == series.Id);
                Assert.StartsWith("agents started within ", started.Message, StringComparison.Ordinal);
            }

            Assert.All(runs, r => Assert.Equal("e2e", r.Manifest.RunId));
            Assert.All(runs, r => Assert.True(
                (r.Manifest.StartedAt - runs[0].Manifest.StartedAt).Duration() < TimeSpan.FromSeconds(1),
                $"agents started at {string.Join(", ", runs.Select(x => x.Manifest.StartedAt.ToString("O")))}"));
            Assert.Contains("agents-started", File.ReadAllText(Path.Combine(merged, "summary.md")), StringComparison.Ordinal);
            Assert.All(runs, r => Assert.Contains(r.Manifest.Agents, label => label.StartsWith("agent-", StringComparison.Ordinal)));
        }
        finally
        {
            agents.ForEach(a => a.Dispose());
        }
    }

    [Fact]
    public async Task AnAgentThatNeverComes_IsNamedByTheCoordinator_AndTheOthersStopWithCode6()
    {
        var output = HarnessRun.TempFolder();
        var port = LoopbackPorts.Free(1)[0];
        using var coordinator = HarnessProcess.Start(
            "coordinate", "--agents", "2", "--listen", $"127.0.0.1:{port}", "--run-id", "lonely", "--agent-timeout", "3s", "--output", output);

        // Agent 1 of 2 never starts; nothing is loaded, so the target need not exist.
        using var agent = HarnessProcess.Start(
            "run", "--agent", "0/2", "--coordinator", $"http://127.0.0.1:{port}", "--target", "grpc=http://127.0.0.1:1", "--output", Path.Combine(output, "agent"));
        await agent.WaitForExitAsync(TimeSpan.FromSeconds(60));
        await coordinator.WaitForExitAsync(TimeSpan.FromSeconds(30));

        Assert.Equal(6, agent.ExitCode);
        Assert.Contains("1 of 2 agents did not register within 3s (--agent-timeout); registered: agent 0.", agent.Output, StringComparison.Ordinal);
        Assert.Equal(6, coordinator.ExitCode);
        Assert.Contains("1 of 2 agents did not register within 3s (--agent-timeout); registered: agent 0.", coordinator.Output, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(output, "agent", "agent-0-of-2")));
    }

    [Fact]
    public async Task AnAgentThatDiesMidSeries_StopsTheOthersWithinTheSilenceLimit_WhoseRunsAreKept()
    {
        // Arrange: two agents on a series of about two minutes.
        await using var service = await LocalProcess.StartAsync("grpc", "Harness.GrpcService", ["--Scheduling:Mode=iocp"], CancellationToken.None);
        var output = HarnessRun.TempFolder();
        var port = LoopbackPorts.Free(1)[0];
        using var coordinator = HarnessProcess.Start(
            "coordinate", "--agents", "2", "--listen", $"127.0.0.1:{port}", "--run-id", "dies", "--agent-timeout", "60s", "--silence-limit", "6s", "--output", output);
        string[] Agent(int index) =>
        [
            "run", "--agent", $"{index}/2", "--coordinator", $"http://127.0.0.1:{port}",
            "--target", $"grpc={service.Address},metrics={service.AdminAddress},mode=iocp",
            "--operations", "compute", "--iterations", "100000", "--profile", "constant", "--time-scale", "1", "--users", "2",
            "--warm-up", "0", "--output", Path.Combine(output, $"agent{index}"),
        ];
        using var survivor = HarnessProcess.Start(Agent(0));
        using var victim = HarnessProcess.Start(Agent(1));
        for (var i = 0; i < 600 && !(victim.Output.Contains("started with the other agents", StringComparison.Ordinal) && victim.Output.Contains("[1/1", StringComparison.Ordinal)); i++)
        {
            await Task.Delay(100);
        }

        // Act
        await victim.SignalAsync("KILL");
        var killed = DateTimeOffset.UtcNow;
        await survivor.WaitForExitAsync(TimeSpan.FromSeconds(90));
        var stoppedAfter = DateTimeOffset.UtcNow - killed;
        await coordinator.WaitForExitAsync(TimeSpan.FromSeconds(60));

        // Assert: agent 1 is named; agent 0 stopped long before its series' end, and its run reached the coordinator.
        Assert.Equal(6, survivor.ExitCode);
        Assert.Contains("the coordinator stopped the run: agent 1 (", survivor.Output, StringComparison.Ordinal);
        Assert.Equal(6, coordinator.ExitCode);
        Assert.Contains("agent 1 (", coordinator.Output, StringComparison.Ordinal);
        Assert.Contains("stopped answering", coordinator.Output, StringComparison.Ordinal);
        var kept = RawRunReader.Read(Path.Combine(output, "dies", "agents", "agent-0-of-2"));
        Assert.True(kept.Timelines.Values.Single().Sum(s => s.Requests) > 0);
        Assert.False(File.Exists(Path.Combine(output, "dies", "index.html")));
        // Its two-minute series was cut within the silence limit, a heartbeat and the writing of its report.
        Assert.True(stoppedAfter < TimeSpan.FromSeconds(60), $"agent 0 stopped {stoppedAfter} after agent 1 was killed");
    }
}
