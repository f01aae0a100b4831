using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Tests;

/// <summary>A local service that dies mid-series is named as the cause of what follows, with its exit code.</summary>
[Trait("Category", "EndToEnd")]
public sealed class ServiceExitTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(90);

    [LinuxFact]
    public async Task ServiceKilledMidSeries_IsATargetDownEvent_WithItsExitCode_AndTheRunEndsNormally()
    {
        // Arrange: one local gRPC series of 13 s under way.
        var output = HarnessRun.TempFolder();
        using var harness = HarnessProcess.Start(
            "run", "--modes", "iocp", "--stacks", "grpc", "--operations", "call-third-party", "--style", "task-delay",
            "--delay-ms", "100", "--fanout", "1", "--profile", "constant", "--time-scale", "0.1", "--warm-up", "1s",
            "--output", output);
        await harness.WaitForLineAsync("[1/1 grpc-call-third-party-iocp]", Timeout);
        // The service itself, not the shell around it that also names it.
        var service = ProcessTree.Descendants(harness.Id).Single(pid => ProcessTree.CommandLine(pid) is var line
            && line.StartsWith("dotnet ", StringComparison.Ordinal) && line.Contains("Harness.GrpcService.dll", StringComparison.Ordinal));

        // Act: the kernel's way of ending a process (as the OOM killer does), which no handler in it sees.
        await Containers.Docker.RunAsync("kill", ["-KILL", $"{service}"], TimeSpan.FromSeconds(10));
        await harness.WaitForExitAsync(Timeout);

        // Assert: the run still ends and writes its report, and both the console and the events say what happened.
        Assert.True(harness.ExitCode == 0, $"exit code {harness.ExitCode}\n{harness.Output}");
        Assert.Contains("grpc (iocp) exited with code 137 during the series", harness.Output, StringComparison.Ordinal);
        var data = RawRunReader.Read(HarnessRun.RunFolder(output));
        var down = Assert.Single(data.Events, e => e.Kind == "target-down" && e.Message.Contains("exited with code 137", StringComparison.Ordinal));
        Assert.Equal("grpc-call-third-party-iocp", down.SeriesId);

        // The runtime session the runner had on it ends with it: one note, no more, and the run goes on.
        var ended = Assert.Single(data.Events, e => e.Kind == "note" && e.Message.Contains("runtime", StringComparison.Ordinal));
        Assert.StartsWith($"the runtime session on pid {service} ended at second ", ended.Message, StringComparison.Ordinal);
    }
}
