using System.Globalization;
using Harness.LoadTests.Hosting;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;

namespace Harness.LoadTests.Tests.Containers;

/// <summary>docker-compose.yml's distributed run: AGENTS agent containers share the load, and the coordinator merges their uploads into one report.</summary>
[Trait("Category", "Docker")]
public sealed class ComposeAgentsTests
{
    [Fact]
    public async Task ProfileAgents_TwoAgentsClaimTheirIndexes_AndTheCoordinatorWritesOneReportCountingBoth()
    {
        // Arrange: a project of its own, free host ports, a reports folder the runner's user may write.
        var project = "harness-agents-" + Guid.NewGuid().ToString("N")[..8];
        var reports = HarnessRun.TempFolder();
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(reports, (UnixFileMode)0b111_111_111);
        }

        var env = new Dictionary<string, string>
        {
            ["AGENTS"] = "2",
            ["REPORTS_DIR"] = reports,
            // 1 s series after 0.5 s of warm-up: enough for both agents' requests and the lead's /metrics read (at a
            // series' first second); what takes the time here is the start-up, the meetings and the merge.
            ["RUNNER_TIME_SCALE"] = "0.05",
            // Compute, not CallThirdParty: under threadpool the blocking calls starve the service's pool, and whether
            // any call of a short series comes back then depends on when the pool injects threads (0 of them did, on
            // both agents, in 2 of 3 runs). This test is about claiming indexes and merging, not about starvation.
            ["RUNNER_OPERATIONS"] = "compute",
            // Short calls, so that a series ends without a queue behind it and the lone calls after it settle quickly.
            ["RUNNER_ITERATIONS"] = "100000",
            ["AGENTS_TIMEOUT"] = "5m",
        };
        string[] portVariables = ["STUB_PORT", "SOAP_THREADPOOL_PORT", "SOAP_IOCP_PORT", "SOAP_CUSTOMPOOL_PORT",
            "GRPC_THREADPOOL_PORT", "GRPC_IOCP_PORT", "GRPC_CUSTOMPOOL_PORT"];
        foreach (var (variable, port) in portVariables.Zip(LoopbackPorts.Free(portVariables.Length)))
        {
            env[variable] = port.ToString(CultureInfo.InvariantCulture);
        }

        try
        {
            // Act
            var (exitCode, output) = await Docker.RunAsync(
                "docker-compose", ["-p", project, "--profile", "agents", "up", "--exit-code-from", "coordinator", "coordinator"], TimeSpan.FromMinutes(8), env);

            // Assert: one run folder, the merged run, the two agents' uploads in it.
            var logs = (await Docker.RunAsync("docker-compose", ["-p", project, "--profile", "agents", "logs", "--no-color", "agent"], TimeSpan.FromMinutes(1), env)).Output;
            Assert.True(exitCode == 0, output + logs);
            var run = Assert.Single(Directory.GetDirectories(reports));
            var merged = RawRunReader.Read(run);
            var agents = new[] { 0, 1 }.Select(i => RawRunReader.Read(Path.Combine(run, "agents", $"agent-{i}-of-2"))).ToList();
            Assert.True(File.Exists(Path.Combine(run, "index.html")));
            Assert.Equal(Path.GetFileName(run), merged.Manifest.RunId);
            Assert.Equal(["threadpool", "iocp", "custompool"], merged.Manifest.Modes);
            Assert.Equal(2, merged.Manifest.Agents.Count);
            Assert.Equal(6, merged.Manifest.Series.Count);
            foreach (var series in merged.Manifest.Series)
            {
                var perAgent = agents.Select(a => a.Timelines[series.Id].Sum(s => s.Requests - s.Failures)).ToList();
                Assert.All(perAgent, successes => Assert.True(successes > 0, $"{series.Id}: an agent had no successful requests"));
                Assert.Equal(agents.Sum(a => a.Timelines[series.Id].Sum(s => s.Requests)), merged.Timelines[series.Id].Sum(s => s.Requests));
                Assert.Contains(merged.Timelines[series.Id], s => ServerMetrics.HasTarget(s.Server));
                Assert.Contains(merged.Events, e => e.Kind == "agents-started" && e.SeriesId == series.Id);
            }
        }
        finally
        {
            await Docker.RunAsync("docker-compose", ["-p", project, "--profile", "agents", "down", "--remove-orphans"], TimeSpan.FromMinutes(2), env);
        }

        Assert.Empty(await Docker.ContainersLabelledAsync($"com.docker.compose.project={project}"));
    }
}
