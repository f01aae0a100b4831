using System.Diagnostics;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;

namespace Harness.LoadTests.Tests;

/// <summary>
/// A target that accepts every call and never answers: the run still ends on time, and its report shows every call
/// failed by the timeout, not a clean series of no requests.
/// </summary>
[Trait("Category", "EndToEnd")]
// Alone, with the whole-run hostile tests: floods and failing calls by the thousand starve a test beside them.
[Collection(nameof(HostileRunTests))]
public sealed class SilentTargetTests
{
    // The bound a run keeps: quick at 0.1 is 1 s of warm-up and 2 s of load, then the runner's own warm-up calls, the
    // drain and the ideal's lone calls, each now bounded by the 1 s timeout.
    private static readonly TimeSpan RunBound = TimeSpan.FromSeconds(90);

    [Theory]
    [InlineData("grpc", "DEADLINE_EXCEEDED")]
    [InlineData("soap", "timeout")]
    public async Task RunAgainstASilentServer_EndsInTime_AndEveryCallIsATimeoutFailure(string stack, string kind)
    {
        // Arrange: the server's own address serves as its metrics too, so nothing else on the machine is asked.
        await using var server = new SilentServer();
        var output = HarnessRun.TempFolder();
        var clock = Stopwatch.StartNew();

        // Act
        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "run", "--target", $"{stack}={server.Address},metrics={server.Address}", "--mode-label", "silent", "--operations", "compute",
            "--profile", "quick", "--time-scale", "0.1", "--timeout", "1s", "--output", output).WaitAsync(RunBound * 2);
        var elapsed = clock.Elapsed;

        // Assert: on time, with a report.
        Assert.True(exitCode == 0, text);
        Assert.True(elapsed < RunBound, $"the run took {elapsed}");
        Assert.True(server.Connections > 0, "the runner never reached the server");
        var folder = HarnessRun.RunFolder(output);
        var run = RawRunReader.Read(folder);
        var series = Assert.Single(run.Manifest.Series);
        var timeline = run.Timelines[series.Id];

        // Every call of the measured seconds failed, and by the timeout (those in flight at the end too: the drain
        // outlasts the timeout).
        var summary = SeriesSummary.From(series, timeline);
        Assert.True(summary.Requests > 0, text);
        Assert.Equal(summary.Requests, summary.Failures);
        Assert.Equal(1.0, summary.ErrorRate);
        var byStatus = Assert.Single(summary.FailuresByStatus);
        Assert.Equal(kind, byStatus.Key);
        Assert.All(timeline.SelectMany(s => s.StatusCounts.Keys), status => Assert.Equal(kind, status));
        Assert.Equal(timeline.Sum(s => s.Requests), series.TotalRequests);

        // Each timed out after its 1 s: the failures' latencies are the timeout, not instant refusals.
        Assert.NotNull(summary.FailureLatency);
        Assert.InRange(summary.FailureLatency.P50Ms, 990, 10_000);

        // The ideal's lone calls were given up too, and said so.
        Assert.Null(series.IdealLatencyMs);
        Assert.Contains($"failed ({kind})", series.IdealMethod, StringComparison.Ordinal);

        var markdown = await File.ReadAllTextAsync(Path.Combine(folder, "summary.md"));
        Assert.Contains("100.0 %", markdown, StringComparison.Ordinal);
        Assert.Contains($"{kind} {summary.Failures:#,0}", markdown, StringComparison.Ordinal);
    }
}
