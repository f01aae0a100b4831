using System.Diagnostics;
using Harness.LoadTests.Hosting;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;

namespace Harness.LoadTests.Tests;

/// <summary>A target that dies mid-run and comes back is measured as an outage, not as fast requests.</summary>
[Trait("Category", "EndToEnd")]
public sealed class OutageTests
{
    private const int Users = 4;
    private const int DelayMs = 300;

    [Fact]
    public async Task TargetKilledAndRestarted_LatencyIsOfSuccesses_FailuresAreBoundedByTheBackoff_AndTheReportShowsTheRecovery()
    {
        // Arrange: a gRPC service whose every call waits 300 ms in the service (task-delay), loaded by 4 users for
        // 2 s of warm-up and 26 s measured; the test kills it 9 s into the series and, 3 s later, starts it again on its ports.
        await using var service = await LocalProcess.StartAsync("grpc", "Harness.GrpcService", ["--Scheduling:Mode=iocp"], CancellationToken.None);
        LocalProcess? restarted = null;
        var output = HarnessRun.TempFolder();
        var run = HarnessRun.InvokeAsync(
            "run", "--target", $"grpc={service.Address},metrics={service.AdminAddress}", "--mode-label", "restarted",
            "--operations", "call-third-party", "--fanout", "1", "--delay-ms", $"{DelayMs}", "--style", "task-delay",
            "--profile", "constant", "--users", $"{Users}", "--time-scale", "0.2", "--warm-up", "2s", "--output", output);
        try
        {
            // Act
            await SeriesStartedAsync(output, "grpc-call-third-party-restarted", run);
            await Task.Delay(TimeSpan.FromSeconds(9));
            service.Kill();
            await Task.Delay(TimeSpan.FromSeconds(3));
            restarted = await service.StartAgainAsync(CancellationToken.None);
            var (exitCode, text) = await run.WaitAsync(TimeSpan.FromMinutes(2));

            // Assert
            Assert.True(exitCode == 0, text);
            var folder = HarnessRun.RunFolder(output);
            var data = RawRunReader.Read(folder);
            var series = Assert.Single(data.Manifest.Series);
            var timeline = data.Timelines[series.Id];
            var summary = SeriesSummary.From(series, timeline, data.Events);

            // The latency is that of successes alone: the refused calls, a few milliseconds each, are not in it. (A
            // timer may fire a couple of milliseconds early, hence 95 % of the delay.)
            Assert.True(summary.Failures > 0, "nothing failed while the target was down");
            Assert.True(summary.Histogram.MinMicroseconds >= DelayMs * 950, $"min {summary.Histogram.MinMicroseconds} µs");

            // Each user waits 100 ms, doubling up to 2 s, after a refused call: a few failures per user per second, not thousands.
            var worst = timeline.MaxBy(s => s.Failures)!;
            Assert.True(worst.Failures <= Users * 12, $"second {worst.Second}: {worst.Failures} failures");

            // The outage is a window, and the series came back after it.
            Assert.Contains(data.Events, e => e.Kind == "target-down");
            Assert.Contains(data.Events, e => e.Kind == "target-up");
            var recovery = Assert.Single(summary.Recoveries);
            Assert.True(recovery.Recovered, recovery.Outcome);
            var markdown = await File.ReadAllTextAsync(Path.Combine(folder, "summary.md"));
            Assert.Contains("Time to recover after each outage or fault window", markdown, StringComparison.Ordinal);
            // Figures of 1,000 and more carry a thousands separator (Format.Number), as a slow machine's p99 may.
            Assert.Matches(@"\| restarted \| target-down \| [\d.,]+ \| [\d.,]+ \| [\d.,]+ \| [\d.,]+ \| [\d,]+ \| [\d.,]+ \| recovered \|", markdown);
        }
        finally
        {
            if (restarted is not null)
            {
                await restarted.DisposeAsync();
            }
        }
    }

    /// <summary>Waits (bounded) until the run has added the series: its file exists.</summary>
    private static async Task SeriesStartedAsync(string output, string seriesId, Task run)
    {
        var clock = Stopwatch.StartNew();
        while (!Directory.GetDirectories(output).Any(d => File.Exists(Path.Combine(d, "series", seriesId + ".jsonl"))))
        {
            Assert.False(run.IsCompleted, "the run ended before its series started");
            Assert.True(clock.Elapsed < TimeSpan.FromSeconds(60), "the series did not start within a minute");
            await Task.Delay(50);
        }
    }
}
