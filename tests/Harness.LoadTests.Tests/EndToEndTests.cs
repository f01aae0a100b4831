using Harness.LoadTests.Hosting;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;

namespace Harness.LoadTests.Tests;

/// <summary>Short real runs: services started as processes, load, raw files, report, thresholds.</summary>
[Trait("Category", "EndToEnd")]
public sealed class EndToEndTests
{
    [Fact]
    public async Task EmbeddedDefault_Shortened_ReportsEveryModesSeriesWithServerCounters()
    {
        // Arrange
        var output = HarnessRun.TempFolder();

        // Act: the main command, twenty times shorter (1 s per series after 0.5 s of warm-up, /metrics read at its
        // first second), at a peak of 4 users, with 50 ms third-party calls and 100,000-iteration Computes: the
        // ThreadPool's starved series still starve (a few requests where the other modes make a hundred), but drain in
        // a second or two (at the profile's 20 users the gRPC one took 15 s), and each Compute series ends, and its
        // lone calls settle, without a queue of long calls behind it.
        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "--time-scale", "0.05", "--users", "4", "--delay-ms", "50", "--iterations", "100000", "--output", output,
            // Not threadpool's: its starved series may give up most of its few calls at the end, and those count as failures (in-flight-at-end).
            "--assert", "mode=iocp:errors<50%", "--assert", "mode=custompool:errors<50%");

        // Assert
        Assert.True(exitCode == 0, text);
        var folder = HarnessRun.RunFolder(output);
        Assert.True(File.Exists(Path.Combine(folder, "index.html")));
        Assert.Contains(Path.Combine(folder, "index.html"), text, StringComparison.Ordinal);

        var run = RawRunReader.Read(folder);
        Assert.Equal(["threadpool", "iocp", "custompool"], run.Manifest.Modes);
        Assert.Equal(12, run.Manifest.Series.Count);
        foreach (var series in run.Manifest.Series)
        {
            var timeline = run.Timelines[series.Id];
            Assert.True(timeline.Sum(s => s.Requests) > 0, $"{series.Id} made no requests");
            Assert.Contains(timeline, s => s.Server.ContainsKey("harness_threadpool_threads"));
            Assert.Contains(timeline, s => s.Server.Keys.Any(k => k.StartsWith("process_voluntary_context_switches_total", StringComparison.Ordinal)));
            Assert.Contains(timeline, s => s.Users > 0);
        }

        // `report` re-renders from the raw files, and `compare` of a run with itself shows no change.
        File.Delete(Path.Combine(folder, "index.html"));
        Assert.Equal(0, (await HarnessRun.InvokeAsync("report", folder)).ExitCode);
        Assert.True(File.Exists(Path.Combine(folder, "index.html")));
        var (compareExit, comparison) = await HarnessRun.InvokeAsync("compare", folder, folder);
        Assert.Equal(0, compareExit);
        Assert.Contains("grpc-compute-iocp", comparison, StringComparison.Ordinal);
    }

    [Fact]
    public async Task BreachedThreshold_ExitsNonZero_AndStillWritesTheReport()
    {
        var output = HarnessRun.TempFolder();

        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "run", "--modes", "iocp", "--stacks", "grpc", "--operations", "compute", "--time-scale", "0.1",
            "--output", output, "--assert", "p99<1us");

        Assert.Equal(1, exitCode);
        Assert.Contains("FAIL", text, StringComparison.Ordinal);
        Assert.True(File.Exists(Path.Combine(HarnessRun.RunFolder(output), "index.html")));
    }

    [Fact]
    public async Task Repeat_RunsEachRepetitionAsItsOwnSeries_AgainstAServiceOfItsOwn()
    {
        var output = HarnessRun.TempFolder();

        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "run", "--modes", "iocp", "--repeat", "2", "--stacks", "grpc", "--operations", "compute", "--iterations", "100000",
            "--profile", "constant", "--time-scale", "0.02", "--output", output);

        Assert.True(exitCode == 0, text);
        var run = RawRunReader.Read(HarnessRun.RunFolder(output));
        Assert.Equal(["grpc-compute-iocp-1", "grpc-compute-iocp-2"], run.Manifest.Series.Select(s => s.Id));
        Assert.Equal(["iocp"], run.Manifest.Modes);
        Assert.All(run.Manifest.Series, s => Assert.True(run.Timelines[s.Id].Sum(t => t.Requests) > 0, s.Id));

        // A fresh service process for each repetition: each listened on ports of its own.
        Assert.NotEqual(run.Manifest.Series[0].Target, run.Manifest.Series[1].Target);
        Assert.Equal([1, 2], run.Manifest.Series.Select(s => s.Repetition));
    }

    [Fact]
    public async Task WarmUp_IsRecordedAtTheSeriesStart_AndLeftOutOfTheSummary()
    {
        var output = HarnessRun.TempFolder();

        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "run", "--modes", "iocp", "--stacks", "grpc", "--operations", "compute", "--iterations", "100000",
            "--profile", "constant", "--time-scale", "0.03", "--warm-up", "2s", "--output", output);

        Assert.True(exitCode == 0, text);
        var run = RawRunReader.Read(HarnessRun.RunFolder(output));
        var series = Assert.Single(run.Manifest.Series);
        Assert.Equal(2, series.WarmUpSeconds);
        Assert.Equal(0, series.Repetition);
        var timeline = run.Timelines[series.Id];
        Assert.True(timeline.Where(s => s.Second < 2).Sum(s => s.Requests) > 0, "the warm-up made no requests");
        Assert.Equal(timeline.Sum(s => s.Requests), series.TotalRequests);
        Assert.Contains(timeline, s => s.ServerTime is { TotalCount: > 0 });

        // The ideal: lone calls on the service the load warmed, after it.
        Assert.True(series.IdealLatencyMs > 0, series.IdealMethod);
        Assert.Contains("lone calls", series.IdealMethod, StringComparison.Ordinal);

        var summary = SeriesSummary.From(series, timeline);
        Assert.Equal(2, summary.WarmUpSecondsLeftOut);
        Assert.Equal(timeline.Where(s => s.Second >= 2).Sum(s => s.Requests), summary.Requests);
    }

    [Fact]
    public async Task Burst_WarmsUpWithOneWholeBurst_ThenMeasuresOneBurst()
    {
        var output = HarnessRun.TempFolder();
        var copies = 5 * Environment.ProcessorCount;

        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "run", "--profile", "burst", "--operations", "compute", "--modes", "iocp", "--stacks", "grpc", "--iterations", "100000",
            "--time-scale", "0.1", "--output", output);

        Assert.True(exitCode == 0, text);
        var run = RawRunReader.Read(HarnessRun.RunFolder(output));
        var series = Assert.Single(run.Manifest.Series);
        var timeline = run.Timelines[series.Id];

        // The warm-up burst's length is recorded once it is over, on a whole second, and the measured burst starts there.
        Assert.True(series.WarmUpSeconds >= 1 && series.WarmUpSeconds == Math.Floor(series.WarmUpSeconds), $"warm-up {series.WarmUpSeconds}");
        Assert.Equal(copies, timeline.Where(s => s.Second < series.WarmUpSeconds).Sum(s => s.Requests));
        Assert.Equal(2 * copies, series.TotalRequests);
        var summary = SeriesSummary.From(series, timeline);
        Assert.Equal(copies, summary.Requests);
        Assert.Equal(0, summary.Failures);
        Assert.Equal(copies, summary.PeakUsers);
    }

    [Fact]
    public async Task TargetKilledMidRun_TheRunGoesOnAndTheReportShowsTheFailures()
    {
        // Arrange: an external target that this test kills two seconds into a six-second run.
        await using var service = await LocalProcess.StartAsync("grpc", "Harness.GrpcService", ["--Scheduling:Mode=custompool"], CancellationToken.None);
        var output = HarnessRun.TempFolder();
        var killer = Task.Delay(TimeSpan.FromSeconds(4)).ContinueWith(_ => service.Kill(), TaskScheduler.Default);

        // Act
        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "run", "--target", $"grpc={service.Address},metrics={service.AdminAddress}", "--mode-label", "doomed",
            "--operations", "compute", "--iterations", "100000", "--profile", "constant", "--time-scale", "0.06", "--output", output);
        await killer;

        // Assert
        Assert.True(exitCode == 0, text);
        var run = RawRunReader.Read(HarnessRun.RunFolder(output));
        var timeline = run.Timelines["grpc-compute-doomed"];
        Assert.True(timeline.Sum(s => s.Requests - s.Failures) > 0, "nothing succeeded before the kill");
        Assert.True(timeline.Sum(s => s.Failures) > 0, "nothing failed after the kill");
        Assert.Contains(run.Events, e => e.Kind == "target-down");
        // What the first failure of a status said is kept, with the cause gRPC holds in its status.
        Assert.Contains(run.Events, e => e.Kind == "note" && e.SeriesId == "grpc-compute-doomed"
            && e.Message.StartsWith("first UNAVAILABLE: RpcException: ", StringComparison.Ordinal) && e.Message.Contains(" ← ", StringComparison.Ordinal));
        // The runner's own samples run on after the target has gone.
        Assert.Contains(timeline, s => s.Server.ContainsKey("harness_runner_threads") && !s.Server.ContainsKey("process_threads"));
        Assert.True(File.Exists(Path.Combine(HarnessRun.RunFolder(output), "index.html")));
    }
}
