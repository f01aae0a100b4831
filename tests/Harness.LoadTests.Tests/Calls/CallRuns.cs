using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Tests.Calls;

/// <summary>What a <c>harness run</c> printed and wrote: its one series, the series' seconds and the run's events; no series when nothing was written.</summary>
internal sealed record CallRun(int ExitCode, string Output, SeriesInfo? Series, IReadOnlyList<SecondSample> Seconds, IReadOnlyList<RunEvent> Events);

/// <summary>Short <c>harness run --call</c> runs and what their run folders hold.</summary>
internal static class CallRuns
{
    /// <summary>
    /// The short load of every --call test: the quick profile twenty times shorter (1 s measured, its steps of users
    /// kept), no warm-up. These tests check what was sent and how it was recorded, not throughput: a second of a local
    /// server's calls is hundreds of them, and the 4 s they had (then a second of warm-up) added nothing but time. The
    /// warm-up itself is tested where it is the subject (EndToEndTests).
    /// </summary>
    public static readonly string[] Short = ["--profile", "quick", "--time-scale", "0.05", "--warm-up", "0"];

    /// <summary>Runs the harness into a folder of its own.</summary>
    public static async Task<CallRun> RunAsync(params string[] args)
    {
        var output = HarnessRun.TempFolder();
        var (exitCode, text) = await HarnessRun.InvokeAsync(["run", .. args, "--output", output]);
        if (Directory.GetDirectories(output) is not [var folder])
        {
            return new CallRun(exitCode, text, null, [], []);
        }

        var run = RawRunReader.Read(folder);
        var series = Assert.Single(run.Manifest.Series);
        return new CallRun(exitCode, text, series, run.Timelines[series.Id], run.Events);
    }

    /// <summary>The refusal: exit code 2, nothing written, and the one error line, which is returned.</summary>
    public static string AssertRefused(CallRun run)
    {
        Assert.True(run.ExitCode == 2, run.Output);
        Assert.Null(run.Series);
        var errors = run.Output.Split('\n').Where(l => l.StartsWith("error:", StringComparison.Ordinal)).ToList();
        return Assert.Single(errors);
    }

    /// <summary>The run wrote its series with requests and no failures, and no outage of a target that is up.</summary>
    public static void AssertServedWithoutErrors(CallRun run, string seriesId)
    {
        Assert.True(run.ExitCode == 0, run.Output);
        Assert.NotNull(run.Series);
        Assert.Equal(seriesId, run.Series.Id);
        Assert.True(run.Seconds.Sum(s => s.Requests) > 0, run.Output);
        // The counts and the first failure of each status on the message's first line: a CI log keeps only that line.
        var firstFailures = run.Events.Where(e => e.Kind == "note" && e.Message.StartsWith("first ", StringComparison.Ordinal)).Select(e => e.Message);
        Assert.True(
            run.Seconds.Sum(s => s.Failures) == 0,
            string.Join(", ", run.Seconds.SelectMany(s => s.StatusCounts).Select(c => $"{c.Key}={c.Value}"))
            + "; " + string.Join("; ", firstFailures) + Environment.NewLine + run.Output);
        Assert.DoesNotContain(run.Events, e => e.Kind == "target-down");
    }

    /// <summary>The series' streams, summed over its seconds: every successful call streamed, and every one is counted.</summary>
    public static StreamSample AssertStreamsRecorded(CallRun run)
    {
        var seconds = run.Seconds.Where(s => s.Requests > s.Failures).ToList();
        Assert.NotEmpty(seconds);
        Assert.All(seconds, s => Assert.True(s.Stream?.Calls == s.Requests - s.Failures, $"second {s.Second}: {s.Stream?.Calls} streams of {s.Requests - s.Failures} calls"));
        return RunMerger.MergeSecond(0, seconds).Stream!;
    }

    /// <summary>Every second with successful requests carries the server's time of each, and the queue-and-transport time with it.</summary>
    public static void AssertServerTimeRecorded(CallRun run)
    {
        var served = run.Seconds.Where(s => s.Requests > s.Failures).ToList();
        Assert.NotEmpty(served);
        Assert.All(served, s =>
        {
            Assert.True(s.ServerTime is { TotalCount: > 0 }, $"second {s.Second}: no server time");
            Assert.Equal(s.Requests - s.Failures, s.ServerTime!.TotalCount);
            Assert.True(s.QueueTime is { TotalCount: > 0 }, $"second {s.Second}: no queue-and-transport time");
        });
    }
}
