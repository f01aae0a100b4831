using System.Diagnostics;
using Harness.LoadTests.Commands;
using Harness.LoadTests.Common;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Recording;
using Harness.Metrics;

namespace Harness.LoadTests.Tests.Containers;

/// <summary><c>harness matrix</c> against a real Docker engine, through Docker.DotNet.</summary>
[Trait("Category", "Docker")]
public sealed class MatrixTests
{
    [Fact]
    public async Task KilledContainer_TheRunRecordsTheFaultWindowTheFailuresAndTheRecovery()
    {
        // Arrange
        var output = HarnessRun.TempFolder();

        // Act: one mode, gRPC Compute for 13 s in a 1-CPU container, killed 3 s in and started again 2 s later.
        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "matrix", "--modes", "iocp", "--stacks", "grpc", "--operations", "compute", "--iterations", "100000",
            "--profile", "constant", "--time-scale", "0.1", "--cpus", "1", "--memory", "256m",
            "--fault", "kill@3s+2s", "--output", output);

        // Assert: the run ended normally and wrote its report.
        Assert.True(exitCode == 0, text);
        var folder = HarnessRun.RunFolder(output);
        Assert.True(File.Exists(Path.Combine(folder, "index.html")));
        var run = RawRunReader.Read(folder);
        var timeline = run.Timelines["grpc-compute-iocp"];
        var series = run.Manifest.Series.Single();

        // The fault window, its failures, and requests that succeed again after it.
        var start = Assert.Single(run.Events, e => e.Kind == "fault-start");
        var end = Assert.Single(run.Events, e => e.Kind == "fault-end");
        Assert.InRange(end.AtSeconds - start.AtSeconds, 1.5, 6);
        var endSecond = end.AtSeconds - series.OffsetSeconds;
        Assert.True(timeline.Where(s => s.Second < start.AtSeconds - series.OffsetSeconds).Sum(s => s.Requests - s.Failures) > 0, text);
        Assert.True(timeline.Sum(s => s.Failures) > 0, "nothing failed while the container was dead");
        Assert.True(timeline.Where(s => s.Second > endSecond).Sum(s => s.Requests - s.Failures) > 0, "nothing succeeded after the restart");

        // The container's own stats sat beside its /metrics in the timeline.
        Assert.Contains(timeline, s => s.Server.ContainsKey(ServerMetrics.ContainerCpuSecondsTotal) && s.Server.ContainsKey(ServerMetrics.ContainerThrottledPeriodsTotal)
            && s.Server.GetValueOrDefault(ServerMetrics.ContainerCpuPeriodsTotal) > 0);
        Assert.Contains(timeline, s => s.Server.GetValueOrDefault(ServerMetrics.ContainerMemoryLimitBytes) == 256 << 20);

        // Its own /metrics were scraped too, on the dedicated port (Listen__MetricsPort) the container was given. The
        // container stats above share these samples (any of them passes HasTarget), so look for what only the service
        // writes: its harness_info, naming the stack and the mode.
        Assert.Contains(timeline, s => s.Server.Keys.Any(k => ServerMetrics.NameOf(k) == MetricNames.Info
            && ServerMetrics.LabelOf(k, MetricNames.ServiceLabel) == "grpc" && ServerMetrics.LabelOf(k, MetricNames.ModeLabel) == "iocp"));

        // Nothing this run started is left behind.
        Assert.Empty(await Docker.ContainersLabelledAsync($"harness.run={RunIdIn(text)}"));
    }

    [Fact]
    public async Task Sigterm_MidSeries_WritesTheReportAndRemovesEveryContainerAndTheNetwork()
    {
        // Arrange: the harness as its own process, as docker stop or Ctrl+C would reach it.
        var output = HarnessRun.TempFolder();
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var arg in (string[])[typeof(HarnessCli).Assembly.Location, "matrix", "--modes", "iocp,custompool", "--stacks", "grpc",
                     "--operations", "compute", "--iterations", "100000", "--profile", "constant", "--output", output])
        {
            start.ArgumentList.Add(arg);
        }

        using var harness = Process.Start(start)!;
        var text = new System.Text.StringBuilder();
        var healthy = new TaskCompletionSource();
        harness.OutputDataReceived += (_, e) =>
        {
            lock (text)
            {
                text.AppendLine(e.Data);
            }

            if (e.Data?.Contains("grpc/iocp healthy", StringComparison.Ordinal) == true)
            {
                healthy.TrySetResult();
            }
        };
        harness.BeginOutputReadLine();
        await healthy.Task.WaitAsync(TimeSpan.FromSeconds(90));
        await Task.Delay(TimeSpan.FromSeconds(3));

        // Act
        await Docker.RunAsync("kill", ["-TERM", harness.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)], TimeSpan.FromSeconds(10));
        await harness.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(60));

        // Assert
        string printed;
        lock (text)
        {
            printed = text.ToString();
        }

        Assert.True(harness.ExitCode == ExitCodes.Interrupted, printed);
        Assert.True(File.Exists(Path.Combine(HarnessRun.RunFolder(output), "index.html")), printed);
        var runId = RunIdIn(printed);
        Assert.Empty(await Docker.ContainersLabelledAsync($"harness.run={runId}"));
        var (_, networks) = await Docker.RunAsync("docker", ["network", "ls", "-q", "--filter", $"label=harness.run={runId}"], TimeSpan.FromSeconds(30));
        Assert.True(string.IsNullOrWhiteSpace(networks), networks);
    }

    [Fact]
    public async Task UnreachableEngine_ExitsWithCode2_NamingTheSocket()
    {
        var (exitCode, text) = await HarnessRun.InvokeAsync("matrix", "--docker-host", "unix:///tmp/no-docker-here.sock");

        Assert.Equal(2, exitCode);
        Assert.Contains("unix:///tmp/no-docker-here.sock", text, StringComparison.Ordinal);
        Assert.Contains("Start dockerd", text, StringComparison.Ordinal);
    }

    // matrix prints "containers and network labelled harness.run=<id>" once it has created them.
    private static string RunIdIn(string output) =>
        Assert.IsType<string>(output.Split("harness.run=", 2) is [_, var rest] ? rest.Split([' ', '\n', '\r'])[0] : null);
}
