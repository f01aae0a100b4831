using Harness.LoadTests.Common;

namespace Harness.LoadTests.Tests;

/// <summary>Ctrl+C and SIGTERM in local mode: the services the harness started never outlive it.</summary>
[Trait("Category", "EndToEnd")]
public sealed class SignalTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(90);

    [LinuxFact]
    public async Task SecondSigterm_WhileTheFirstWritesWhatWasRecorded_EndsTheRunner_AndLeavesNoChildProcess()
    {
        // Arrange
        var output = HarnessRun.TempFolder();
        using var harness = await StartSeriesAsync(output);
        var children = ProcessTree.Descendants(harness.Id);

        // Act: the second signal while the first one's clean-up (drain, raw files, report) is under way: once the
        // runner says it saw the first, since two signals of one kind pending together are one to the kernel (a busy
        // machine may not run the runner between two kills), and at once then, as a clean-up can be short.
        await harness.SignalAsync("TERM");
        await harness.WaitForLineAsync("Interrupted: writing what was recorded so far.", Timeout);
        await harness.SignalAsync("TERM");
        await harness.WaitForExitAsync(Timeout);

        // Assert
        Assert.True(harness.ExitCode == ExitCodes.Terminated, $"exit code {harness.ExitCode}\n{harness.Output}");
        await AssertAllEndAsync(children, harness.Output);
    }

    [LinuxFact]
    public async Task OneSigterm_WritesTheReport_ExitsWith130_AndLeavesNoChildProcess()
    {
        var output = HarnessRun.TempFolder();
        using var harness = await StartSeriesAsync(output);
        var children = ProcessTree.Descendants(harness.Id);

        await harness.SignalAsync("TERM");
        await harness.WaitForExitAsync(Timeout);

        Assert.True(harness.ExitCode == ExitCodes.Interrupted, $"exit code {harness.ExitCode}\n{harness.Output}");
        Assert.True(File.Exists(Path.Combine(HarnessRun.RunFolder(output), "index.html")), harness.Output);
        await AssertAllEndAsync(children, harness.Output);
    }

    [LinuxFact]
    public async Task Sigkill_OfTheRunner_TheWatchdogStillEndsItsServices()
    {
        // No handler of the runner runs on SIGKILL: only the watchdog beside each service can end it.
        var output = HarnessRun.TempFolder();
        using var harness = await StartSeriesAsync(output);
        var children = ProcessTree.Descendants(harness.Id);

        await harness.SignalAsync("KILL");
        await harness.WaitForExitAsync(Timeout);

        await AssertAllEndAsync(children, harness.Output);
    }

    /// <summary>One local gRPC series of 130 s, under way: the stub and the service are up and loaded.</summary>
    private static async Task<HarnessProcess> StartSeriesAsync(string output)
    {
        var harness = HarnessProcess.Start(
            "run", "--modes", "iocp", "--stacks", "grpc", "--operations", "compute", "--iterations", "100000",
            "--profile", "constant", "--output", output);
        await harness.WaitForLineAsync("[1/1 grpc-compute-iocp]", Timeout);
        Assert.True(ProcessTree.Descendants(harness.Id).Count >= 2, $"the stub and the service should be running:\n{harness.Output}");
        return harness;
    }

    private static async Task AssertAllEndAsync(IReadOnlyList<int> pids, string output)
    {
        // Killed processes are gone within moments; a few seconds leave room for a busy machine.
        for (var i = 0; i < 50 && pids.Any(ProcessTree.IsAlive); i++)
        {
            await Task.Delay(100);
        }

        Assert.True(!pids.Any(ProcessTree.IsAlive),
            $"still running: {string.Join("; ", pids.Where(ProcessTree.IsAlive).Select(ProcessTree.Describe))}\n{output}");
    }
}

/// <summary>A test that reads /proc: skipped, saying why, elsewhere than on Linux.</summary>
internal sealed class LinuxFactAttribute : FactAttribute
{
    public LinuxFactAttribute()
    {
        if (!OperatingSystem.IsLinux())
        {
            Skip = "reads processes from /proc, which only Linux has";
        }
    }
}
