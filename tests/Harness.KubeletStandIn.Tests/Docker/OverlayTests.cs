using Harness.KubeletStandIn.Tests.Tooling;
using Harness.LoadTests.Recording;

namespace Harness.KubeletStandIn.Tests.Docker;

/// <summary>
/// The repository's own overlays run under the stand-in, with the harness images: what a cluster would run, short.
/// The static checks read these manifests; these runs show they work (a merge reading the wrong folder, or a probe
/// waiting behind the workload, fails here).
/// </summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public sealed class OverlayTests
{
    private static readonly TimeSpan Bound = TimeSpan.FromMinutes(8);

    // A warning or an error in the services' text or compact JSON log lines.
    private static readonly string[] WarningMarks = ["WRN", "ERR", "\"@l\":\"Warning", "\"@l\":\"Error", "Exception"];

    [Fact]
    public async Task Distributed_TwoAgents_TheCoordinatorMergesBothRunsIntoOneReport_WithNoRestart()
    {
        // Arrange: two agents, gRPC in iocp mode only, 2 s series (each agent still makes requests in both: the merge is
        // what is checked, not the load); 100,000-iteration Computes and 500 ms third-party calls
        // (the overlay's own 4 s), so that each series ends without long calls to wait for and Compute's lone calls settle quickly.
        using var output = new TempFolder();

        // Act
        var result = StandInProcess.Run(
            Bound, Overlay("distributed"), "--output", output.Directory, "--agents", "2", "--duration", "2s",
            "--runner-arg=--modes=iocp", "--runner-arg=--stacks=grpc", "--runner-arg=--warm-up=1s",
            "--runner-arg=--iterations=100000", "--runner-arg=--delay-ms=500");

        // Assert
        Assert.True(result.ExitCode == 0, result.Output);
        Assert.Equal("restarts: 0", result.LastLine);
        var run = Assert.Single(Directory.GetDirectories(output.Directory), d => File.Exists(Path.Combine(d, "run.json")));
        Assert.True(File.Exists(Path.Combine(run, "index.html")));
        Assert.True(File.Exists(Path.Combine(run, "summary.md")));
        var merged = RawRunReader.Read(run);
        var agents = new[] { 0, 1 }.Select(i => RawRunReader.Read(Path.Combine(run, "agents", $"agent-{i}-of-2"))).ToList();
        Assert.Equal(["grpc-compute-iocp", "grpc-call-third-party-iocp"], merged.Manifest.Series.Select(s => s.Id));
        foreach (var series in merged.Manifest.Series)
        {
            var perAgent = agents.Select(a => a.Timelines[series.Id].Sum(s => s.Requests)).ToList();
            Assert.All(perAgent, requests => Assert.True(requests > 0, $"{series.Id}: an agent made no requests"));
            Assert.Equal(perAgent.Sum(), merged.Timelines[series.Id].Sum(s => s.Requests));
            Assert.Contains(merged.Events, e => e.Kind == "agents-started" && e.SeriesId == series.Id);
        }

        Assert.Empty(await Leftovers.OfRunAsync(result.RunId));
    }

    [Fact]
    public async Task Soak_Short_WritesTheSoakVerdict_AndItsExitCodeIsTheVerdicts_WithNoRestart()
    {
        // Arrange: the soak overlay (SOAP, threadpool, blocking third-party calls), 10 s after a 2 s warm-up, 4 users:
        // enough for every soak check to be written (all "not judged" on so short a span) and the exit code to follow it.
        // (No run this short could see a liveness restart: the services' probe allows 15 failures 20 s apart.)
        using var output = new TempFolder();

        // Act
        var result = StandInProcess.Run(
            Bound, Overlay("soak"), "--output", output.Directory, "--duration", "10s", "--runner-arg=--warm-up=2s", "--runner-arg=--users=4");

        // Assert: the probes never restarted the starved service, and the report judged the soak.
        Assert.Equal("restarts: 0", result.LastLine);
        var run = Assert.Single(Directory.GetDirectories(output.Directory), d => File.Exists(Path.Combine(d, "run.json")));
        var summary = File.ReadAllText(Path.Combine(run, "summary.md"));
        Assert.Contains("soak.errors", summary, StringComparison.Ordinal);
        Assert.Contains("p99", summary, StringComparison.Ordinal);
        var timeline = RawRunReader.Read(run).Timelines.Values.Single();
        // The service's own "third party did not answer" fault (soap-fault-Server) is the starved ThreadPool's, not the
        // harness's: each blocking call needs a connection to the stub, and with every pool thread blocked a new
        // connection's completion can wait past its 10 s ConnectTimeout (docs/results.md, S2). A few (at most one in
        // 20 of this short run's few dozen requests) are the workload's; any other failure, or more, fails here.
        var failures = timeline.Where(s => s.Failures > 0).Select(s => $"second {s.Second}: {string.Join(", ", s.StatusCounts.Select(c => $"{c.Key} {c.Value}"))}");
        var requests = timeline.Sum(s => s.Requests);
        var starvedFaults = timeline.Sum(s => s.StatusCounts.GetValueOrDefault("soap-fault-Server"));
        var otherFailures = timeline.Sum(s => s.Failures) - starvedFaults;
        Assert.True(requests > 0 && otherFailures == 0 && starvedFaults <= Math.Max(1, requests / 20),
            $"failed requests ({requests} in all): {string.Join("; ", failures)}\n{PodWarnings(output.Directory)}\n{result.Output}");
        Assert.True(result.ExitCode is 0 or 1, result.Output);
        Assert.Equal(result.ExitCode == 1, result.Output.Contains("Job runner: Failed", StringComparison.Ordinal));
        Assert.Empty(await Leftovers.OfRunAsync(result.RunId));
    }

    /// <summary>
    /// The pods' warnings and errors, as the stand-in saved their logs: a SOAP fault counts as one failure in the run,
    /// and only the service's own log says why (the exception behind "the third party did not answer").
    /// </summary>
    private static string PodWarnings(string output)
    {
        var logs = Path.Combine(output, "logs");
        if (!Directory.Exists(logs))
        {
            return "(no pod logs saved)";
        }

        var lines = Directory.GetFiles(logs, "*.log")
            .SelectMany(f => File.ReadLines(f).Select(l => $"{Path.GetFileNameWithoutExtension(f)}: {l}"))
            .Where(l => WarningMarks.Any(mark => l.Contains(mark, StringComparison.Ordinal)))
            .Take(20)
            .ToList();
        return lines.Count == 0 ? "(no warnings in the pod logs)" : string.Join('\n', lines);
    }

    private static string Overlay(string name)
    {
        var folder = new DirectoryInfo(AppContext.BaseDirectory);
        while (folder is not null && !File.Exists(Path.Combine(folder.FullName, "Harness.sln")))
        {
            folder = folder.Parent;
        }

        return Path.Combine(folder?.FullName ?? throw new InvalidOperationException("no Harness.sln above " + AppContext.BaseDirectory), "k8s", "overlays", name);
    }
}
