using System.Diagnostics;
using Harness.LoadTests.Common;
using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Tests;

/// <summary>A run folder on a disk that is, or becomes, full: one line saying so, its own exit code, nothing lost that was written.</summary>
[Trait("Category", "EndToEnd")]
public sealed class DiskFullTests
{
    [TmpfsFact]
    public async Task Run_OnADiskWithRoomForTheRawFilesButNotTheReport_SaysSoOnOneLine_AndExits3()
    {
        // Arrange: 200 KiB hold a few seconds of one series' raw files (~2 KB a second), not the report (~250 KB).
        using var disk = Tmpfs.Mount("200k");

        // Act
        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "run", "--modes", "iocp", "--stacks", "grpc", "--operations", "compute", "--iterations", "100000",
            "--profile", "constant", "--time-scale", "0.03", "--output", disk.Path);

        // Assert: warned before the load, then one line naming the folder and the room needed, and no stack trace.
        var folder = HarnessRun.RunFolder(disk.Path);
        Assert.True(exitCode == ExitCodes.OutputFailed, text);
        Assert.Contains($"warning: {folder} has ", text, StringComparison.Ordinal);
        var error = Assert.Single(Lines(text), l => l.StartsWith("error:", StringComparison.Ordinal));
        Assert.Contains($"could not write the report in {folder}", error, StringComparison.Ordinal);
        Assert.Contains("free, the report needs about", error, StringComparison.Ordinal);
        Assert.Contains($"`harness report {folder}`", error, StringComparison.Ordinal);
        Assert.DoesNotContain(Lines(text), l => l.TrimStart().StartsWith("at ", StringComparison.Ordinal));

        // The raw files are whole; no cut-off report is left to open.
        var run = RawRunReader.Read(folder, out var warnings);
        Assert.Empty(warnings);
        Assert.True(run.Timelines["grpc-compute-iocp"].Sum(s => s.Requests) > 0, text);
        Assert.False(File.Exists(Path.Combine(folder, "index.html")));

        // harness report says the same on the same disk.
        var (reportExit, reportText) = await HarnessRun.InvokeAsync("report", folder);
        Assert.Equal(ExitCodes.OutputFailed, reportExit);
        Assert.Contains($"could not write the report in {folder}", Assert.Single(Lines(reportText), l => l.StartsWith("error:", StringComparison.Ordinal)), StringComparison.Ordinal);
    }

    [TmpfsFact]
    public async Task Run_WhenTheDiskFillsDuringTheLoad_StopsAtOnce_KeepsWhatWasWritten_AndExits4()
    {
        // Arrange: a 65 s series on a disk that this test fills once the load is under way.
        using var disk = Tmpfs.Mount("1m");
        var filled = new TaskCompletionSource<Stopwatch>();
        var filler = Task.Run(async () =>
        {
            var deadline = Stopwatch.StartNew();
            while (deadline.Elapsed < TimeSpan.FromSeconds(90))
            {
                var series = Directory.GetDirectories(disk.Path).Select(d => Path.Combine(d, "series", "grpc-compute-iocp.jsonl")).FirstOrDefault(File.Exists);
                if (series is not null && new FileInfo(series).Length > 0)
                {
                    disk.Fill();
                    filled.SetResult(Stopwatch.StartNew());
                    return;
                }

                await Task.Delay(100);
            }

            filled.SetException(new TimeoutException("the series never wrote a second"));
        });

        // Act
        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "run", "--modes", "iocp", "--stacks", "grpc", "--operations", "compute", "--iterations", "100000",
            "--profile", "constant", "--time-scale", "0.5", "--output", disk.Path);
        await filler;
        var sinceFilled = (await filled.Task).Elapsed;

        // Assert: stopped long before the series' 65 s (seconds, not a minute: the load stops within a second, then
        // the services are stopped), with one line naming the folder.
        var folder = HarnessRun.RunFolder(disk.Path);
        Assert.True(exitCode == ExitCodes.RecordingFailed, text);
        Assert.True(sinceFilled < TimeSpan.FromSeconds(20), $"the run went on for {sinceFilled} after the disk filled:\n{text}");
        var error = Assert.Single(Lines(text), l => l.StartsWith("error:", StringComparison.Ordinal));
        Assert.Contains($"could not write the raw files in {folder}", error, StringComparison.Ordinal);
        Assert.DoesNotContain(Lines(text), l => l.TrimStart().StartsWith("at ", StringComparison.Ordinal));

        // What was written before the disk filled is kept and readable.
        var run = RawRunReader.Read(folder);
        Assert.True(run.Timelines["grpc-compute-iocp"].Sum(s => s.Requests) > 0, text);
    }

    private static string[] Lines(string text) => text.Split('\n', StringSplitOptions.TrimEntries);
}
