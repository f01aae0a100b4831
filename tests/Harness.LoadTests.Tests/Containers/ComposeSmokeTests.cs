using Harness.LoadTests.Hosting;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;

namespace Harness.LoadTests.Tests.Containers;

/// <summary>docker-compose.yml as a user runs it: the stack comes up healthy and the runner service writes a report.</summary>
[Trait("Category", "Docker")]
public sealed class ComposeSmokeTests
{
    private static readonly string[] Services =
        ["soap-threadpool", "soap-iocp", "soap-custompool", "grpc-threadpool", "grpc-iocp", "grpc-custompool"];

    [Fact]
    public async Task Up_RunsTheRunnerAgainstEveryService_TwiceEach_AndWritesAReportWithIntervals()
    {
        // Arrange: a project of its own, free host ports, and a reports folder the runner's user may write.
        var project = "harness-smoke-" + Guid.NewGuid().ToString("N")[..8];
        var reports = HarnessRun.TempFolder();
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(reports, (UnixFileMode)0b111_111_111);
        }
        var env = new Dictionary<string, string>
        {
            ["REPORTS_DIR"] = reports,
            // 1 s series after 0.5 s of warm-up (the runner reads each service's /metrics at a series' first second), at
            // quick's shape with 1 to 5 users instead of 4 to 20, and 50 ms calls: threadpool's series still starve, but
            // drain in a second or two (at 20 users its gRPC one took 15 s).
            ["RUNNER_PROFILE"] = """{"name": "smoke", "stages": [{"kind": "steps", "start": 1, "add": 1, "every": "4s", "during": "20s"}]}""",
            ["RUNNER_TIME_SCALE"] = "0.05",
            ["RUNNER_OPERATIONS"] = "call-third-party",
            ["RUNNER_DELAY_MS"] = "50",
        };
        string[] portVariables = ["STUB_PORT", "SOAP_THREADPOOL_PORT", "SOAP_IOCP_PORT", "SOAP_CUSTOMPOOL_PORT",
            "GRPC_THREADPOOL_PORT", "GRPC_IOCP_PORT", "GRPC_CUSTOMPOOL_PORT"];
        foreach (var (variable, port) in portVariables.Zip(LoopbackPorts.Free(portVariables.Length)))
        {
            env[variable] = port.ToString(System.Globalization.CultureInfo.InvariantCulture);
        }

        try
        {
            // Act
            var (exitCode, output) = await Docker.RunAsync(
                "docker-compose", ["-p", project, "up", "--exit-code-from", "runner"], TimeSpan.FromMinutes(6), env);

            // Assert
            Assert.True(exitCode == 0, output);
            var folder = Assert.Single(Directory.GetDirectories(reports));
            Assert.True(File.Exists(Path.Combine(folder, "index.html")), output);
            var run = RawRunReader.Read(folder);
            Assert.Equal(["threadpool", "iocp", "custompool"], run.Manifest.Modes);
            foreach (var service in Services)
            {
                var (stack, mode) = (service.Split('-')[0], service.Split('-')[1]);
                // Every mode twice (RUNNER_REPEAT's default), so every ratio has an interval.
                var repetitions = run.Manifest.Series.Where(s => s.Stack == stack && s.Mode == mode).ToList();
                Assert.Equal([1, 2], repetitions.Select(s => s.Repetition).Order());
                foreach (var series in repetitions)
                {
                    Assert.Contains($"http://{service}:", series.Target, StringComparison.Ordinal);
                    // threadpool's blocking calls may starve its pool for the whole of so short a series (no call of it
                    // came back in one CI run): that is what the harness measures, so there the service only has to be
                    // reached and scraped. The other modes' calls must come back, through the stub's container.
                    if (mode != "threadpool")
                    {
                        Assert.True(run.Timelines[series.Id].Sum(s => s.Requests - s.Failures) > 0, $"{series.Id} had no successful requests");
                    }

                    Assert.True(run.Timelines[series.Id].Any(s => ServerMetrics.HasTarget(s.Server)), $"{series.Id}: no /metrics scraped from {service}'s Listen__MetricsPort");
                }
            }

            // The report judges with intervals: no ratio between modes is a "single run".
            var groups = ModeComparison.Build(run);
            Assert.DoesNotContain(groups.SelectMany(g => g.Modes), m => m.RatioOf(ModeFigure.RequestsPerSecond).Verdict == RatioVerdict.SingleRun);
            Assert.Contains("long-lived", File.ReadAllText(Path.Combine(folder, "summary.md")), StringComparison.Ordinal);
        }
        finally
        {
            await Docker.RunAsync("docker-compose", ["-p", project, "down", "--remove-orphans"], TimeSpan.FromMinutes(2), env);
        }

        Assert.Empty(await Docker.ContainersLabelledAsync($"com.docker.compose.project={project}"));
    }
}
