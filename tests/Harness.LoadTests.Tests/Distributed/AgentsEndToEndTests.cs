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
    public async Task ThreeAgents_MeetAtABarrier_AndTheirMergedReportCountsEveryAgentsRequests()
    {
        // Arrange: one service, loaded as two modes (two series, so the agents also meet between series).
        await using var service = await LocalProcess.StartAsync("grpc", "Harness.GrpcService", ["--Scheduling:Mode=iocp"], CancellationToken.None);
        var output = HarnessRun.TempFolder();
        var barrier = Path.Combine(output, "barrier");
        string[] Agent(int index) =>
        [
            "run", "--agent", $"{index}/3", "--barrier", barrier, "--run-id", "e2e", "--barrier-timeout", "60s",
            "--target", $"grpc={service.Address},metrics={service.AdminAddress},mode=first",
            "--target", $"grpc={service.Address},metrics={service.AdminAddress},mode=second",
            "--operations", "compute", "--iterations", "100000", "--profile", "constant", "--time-scale", "0.03", "--users", "4",
            "--output", output,
        ];

        // Act
        var agents = Enumerable.Range(0, 3).Select(i => HarnessProcess.Start(Agent(i))).ToList();
        try
        {
            foreach (var agent in agents)
            {
                await agent.WaitForExitAsync(TimeSpan.FromMinutes(3));
            }

            var merged = Path.Combine(output, "merged");
            var (exitCode, text) = await HarnessRun.InvokeAsync("merge", output, "--output", merged, "--wait", "10s");

            // Assert
            Assert.All(agents, a => Assert.True(a.ExitCode == 0, a.Output));
            Assert.True(exitCode == 0, text);
            Assert.True(File.Exists(Path.Combine(merged, "index.html")));
            var runs = Enumerable.Range(0, 3).Select(i => RawRunReader.Read(Path.Combine(output, AgentSettings.Name(i, 3)))).ToList();
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
            }

            Assert.All(runs, r => Assert.Equal("e2e", r.Manifest.RunId));
            Assert.All(runs, r => Assert.True(
                (r.Manifest.StartedAt - runs[0].Manifest.StartedAt).Duration() < TimeSpan.FromSeconds(1),
                $"agents started at {string.Join(", ", runs.Select(x => x.Manifest.StartedAt.ToString("O")))}"));
            Assert.True(Directory.Exists(Path.Combine(barrier, "series-002-grpc-compute-second")));
            Assert.All(Enumerable.Range(0, 3), i => Assert.NotNull(DoneMarker.ReadFrom(Path.Combine(output, AgentSettings.Name(i, 3)))));
        }
        finally
        {
            agents.ForEach(a => a.Dispose());
        }
    }

    [Fact]
    public async Task AnAgentThatNeverComes_FailsTheOthers_WithinTheBarrierTimeout_NamingIt()
    {
        var output = HarnessRun.TempFolder();
        var barrier = Path.Combine(output, "barrier");

        // Agent 1 of 2 never starts; nothing is loaded, so the target need not exist.
        using var agent = HarnessProcess.Start(
            "run", "--agent", "0/2", "--barrier", barrier, "--barrier-timeout", "2s", "--target", "grpc=http://127.0.0.1:1", "--output", output);
        await agent.WaitForExitAsync(TimeSpan.FromSeconds(60));

        Assert.Equal(6, agent.ExitCode);
        Assert.Contains("(start): agent 1 of 2 not ready within 2s of agent 0's arrival; the agents stopped here.", agent.Output, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(output, "agent-0-of-2")));
    }
}
