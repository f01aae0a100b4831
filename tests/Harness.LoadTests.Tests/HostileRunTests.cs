using System.Diagnostics;
using Harness.LoadTests.Engine;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;
using Harness.Metrics;

namespace Harness.LoadTests.Tests;

/// <summary>
/// Whole <c>harness run</c>s against misbehaving servers on loopback (docs/hostile-servers.md), each client in turn:
/// the run ends on time, writes its report, counts every call as a failure of the kind the bound names, and the runner
/// (this process: the run is in-process) stays under a memory bound, whatever the server sends. The target's address
/// is given as its metrics address too, so the runner's /metrics reads meet the same server (and nothing else on the
/// machine is asked).
/// </summary>
/// <remarks>
/// Alone in its collection: a hostile run fails calls by the hundred thousand a second in this process, which would
/// starve a test running beside it, and its memory bound is this process's working set, which another test's load
/// would count. What a hostile run leaves behind in the process is <see cref="HostileAftermathTests"/>' concern.
/// </remarks>
[Trait("Category", "EndToEnd")]
[Collection(nameof(HostileRunTests))]
[CollectionDefinition(nameof(HostileRunTests), DisableParallelization = true)]
public sealed class HostileRunTests
{
    // quick at 0.1: 2 s of load (4 users, 4 more every 0.4 s), no warm-up, each call given up after 2 s.
    private static readonly TimeSpan Load = TimeSpan.FromSeconds(2);
    private static readonly TimeSpan CallTimeout = TimeSpan.FromSeconds(2);

    // The bound a run keeps: the run's length plus the timeout plus the drain (at most the engine's), and a margin for
    // the runner's own warm-up and lone calls (each bounded by the timeout) and the report, on a loaded 2-core VM.
    private static readonly TimeSpan RunBound = Load + CallTimeout + new LoadRunnerOptions().DrainTimeout + TimeSpan.FromSeconds(10);

    // Before the clients' bounds, servers like these held 1.1-4.2 GB in a runner (and the /metrics reads, unbounded,
    // up to 1 GB more); with them, this process (tests, servers and runner together) peaks at about 0.35 GB.
    private const double MemoryBoundBytes = 1024L * 1024 * 1024;

    public static TheoryData<string, string, string[]> Cases => new()
    {
        // case, client (--grpc-client or --soap-client), the failure kinds every call may be counted under: the lean
        // clients' as docs/hostile-servers.md names them; Grpc.Net.Client's and WCF's as they name the same answers.
        { "grpc-frame-size", "lean", ["UNAVAILABLE"] },

        // Grpc.Net.Client fails most calls INTERNAL (a few UNAVAILABLE), and leaves the last users' calls waiting
        // until their deadline.
        { "grpc-frame-size", "grpcnet", ["INTERNAL", "UNAVAILABLE", "DEADLINE_EXCEEDED"] },
        { "grpc-hpack-bomb", "lean", ["UNAVAILABLE"] },

        // "headers length exceeded", as UNAVAILABLE or INTERNAL depending on where the call was; its last users' calls may
        // wait for their deadline, as above.
        { "grpc-hpack-bomb", "grpcnet", ["UNAVAILABLE", "INTERNAL", "DEADLINE_EXCEEDED"] },
        { "grpc-length-2g", "lean", ["RESOURCE_EXHAUSTED"] },

        // Above the run's --max-message-size (4 MiB): "Received message exceeds the maximum configured message size.",
        // before anything is allocated (without a maximum it was INTERNAL, an OutOfMemoryException); as above, the last
        // users' calls may wait until their deadline.
        { "grpc-length-2g", "grpcnet", ["RESOURCE_EXHAUSTED", "DEADLINE_EXCEEDED"] },
        { "soap-endless-chunked", "lean", ["response-too-large"] },

        // WCF's own quota (MaxReceivedMessageSize, the run's --max-message-size) or HttpClient's head limit, under a
        // CommunicationException.
        { "soap-endless-chunked", "wcf", ["soap-communication"] },
        { "soap-continue-forever", "lean", ["response-too-large"] },
        { "soap-continue-forever", "wcf", ["soap-communication"] },
        { "soap-length-1g-slow", "lean", ["response-too-large"] },
        { "soap-length-1g-slow", "wcf", ["soap-communication"] },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task RunAgainstAHostileServer_EndsOnTime_CountsEveryCallUnderItsKind_AndStaysUnderTheMemoryBound(string hostile, string client, string[] kinds)
    {
        // Arrange
        await using var server = HostileServers.Start(hostile);
        var stack = hostile.StartsWith("grpc", StringComparison.Ordinal) ? "grpc" : "soap";
        var output = HarnessRun.TempFolder();
        var clock = Stopwatch.StartNew();

        // Act
        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "run", "--target", $"{stack}={server.Address},metrics={server.Address}", "--mode-label", "hostile", "--operations", "compute",
            $"--{stack}-client", client, "--profile", "quick", "--time-scale", "0.1", "--warm-up", "0",
            "--timeout", $"{CallTimeout.TotalSeconds}s", "--output", output).WaitAsync(RunBound * 2);
        var elapsed = clock.Elapsed;

        // Assert: on time, with a report.
        Assert.True(exitCode == 0, text);
        Assert.True(elapsed < RunBound, $"the run took {elapsed}");
        Assert.True(server.Accepted > 0, "the runner never reached the server");
        var folder = HarnessRun.RunFolder(output);
        var markdown = Path.Combine(folder, "summary.md");
        Assert.True(File.Exists(markdown), "no summary.md");
        Assert.Contains("100.0 %", await File.ReadAllTextAsync(markdown), StringComparison.Ordinal);
        var run = RawRunReader.Read(folder);
        var series = Assert.Single(run.Manifest.Series);
        var timeline = run.Timelines[series.Id];

        // Every call failed, under one of the case's kinds, and each was counted once.
        var summary = SeriesSummary.From(series, timeline);
        Assert.True(summary.Requests > 0, text);
        Assert.Equal(summary.Requests, summary.Failures);
        var counted = string.Join(", ", summary.FailuresByStatus.Select(p => $"{p.Key} {p.Value}"));
        Assert.True(summary.FailuresByStatus.All(p => kinds.Contains(p.Key)), $"failures counted as {counted}");
        Assert.All(timeline.SelectMany(s => s.StatusCounts.Keys), status => Assert.Contains(status, kinds));
        Assert.Equal(timeline.Sum(s => s.Requests), series.TotalRequests);

        // The runner's own working set, recorded each second of the series.
        var workingSets = timeline.Select(s => ServerMetrics.Value(s.Server, MetricNames.RunnerWorkingSetBytes)).OfType<double>().ToList();
        Assert.NotEmpty(workingSets);
        Assert.True(workingSets.Max() < MemoryBoundBytes, $"the runner's working set peaked at {workingSets.Max() / (1024 * 1024):0} MB");
    }
}
