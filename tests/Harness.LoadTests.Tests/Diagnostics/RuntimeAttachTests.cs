using System.Diagnostics;
using Harness.LoadTests.Hosting;
using Harness.LoadTests.Recording;
using Harness.Metrics;

namespace Harness.LoadTests.Tests.Diagnostics;

/// <summary>
/// The runner attached to a target's .NET runtime over EventPipe: what it records agrees with what the service says of
/// itself, tells a starving ThreadPool from one that is not, and a process it cannot attach to costs one note.
/// </summary>
[Trait("Category", "EndToEnd")]
public sealed class RuntimeAttachTests
{
    private const string StarvingCall = "harness.starving.Starving/Wait";

    /// <summary>No warm-up: a pause of one second (the session attaches, the meter publishes once), then 16 users for 2 s.</summary>
    private const string StarvingProfile =
        """{"name":"starving","stages":[{"kind":"pause","during":"1s"},{"kind":"keepConstant","copies":16,"during":"2s"}]}""";

    private static readonly TimeSpan Bound = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task OurOwnService_ItsAttachedThreadPoolFigures_AgreeWithItsOwnMetrics()
    {
        // Arrange: the runner starts the gRPC service in threadpool mode itself and attaches to it by default; 8 users
        // of Compute for 5 s after 1 s of warm-up.
        var output = HarnessRun.TempFolder();

        // Act
        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "run", "--stacks", "grpc", "--operations", "compute", "--modes", "threadpool", "--iterations", "100000",
            "--profile", "constant", "--users", "8", "--time-scale", "0.04", "--warm-up", "1s", "--output", output).WaitAsync(Bound);

        // Assert: the seconds holding both the service's own harness_threadpool_* and the runtime's figures.
        Assert.True(exitCode == 0, text);
        var run = RawRunReader.Read(HarnessRun.RunFolder(output));
        Assert.DoesNotContain(run.Events, e => e.Kind == "note" && e.Message.Contains("runtime", StringComparison.Ordinal));
        var both = run.Timelines.Single().Value
            .Where(s => s.Server.ContainsKey(MetricNames.RuntimeThreadPoolThreads) && s.Server.ContainsKey(MetricNames.ThreadPoolThreads))
            .ToList();
        Assert.True(both.Count >= 3, $"{both.Count} seconds with both figures\n{text}");

        // The thread count moves slowly (the pool adds or retires a thread at a time), so second by second the two
        // readings, up to a second apart (the meter publishes once a second, /metrics is read once a second), agree:
        // the median difference within 2 threads or 25 % of the service's count, whichever is larger.
        var threads = both.Select(s => (Runtime: s.Server[MetricNames.RuntimeThreadPoolThreads], Own: s.Server[MetricNames.ThreadPoolThreads])).ToList();
        var threadGap = Median(threads.Select(t => Math.Abs(t.Runtime - t.Own)));
        Assert.True(threadGap <= Tolerance(Median(threads.Select(t => t.Own))), $"threads (runtime, own): {string.Join(" ", threads)}");

        // The queue changes within milliseconds, so two readings up to a second apart need not agree second by second;
        // what must agree is the level each saw: the medians of the two series, within the same tolerance.
        var queue = both.Select(s => (Runtime: s.Server[MetricNames.RuntimeThreadPoolQueueLength], Own: s.Server[MetricNames.ThreadPoolPendingWorkItems])).ToList();
        var ownQueue = Median(queue.Select(q => q.Own));
        Assert.True(Math.Abs(Median(queue.Select(q => q.Runtime)) - ownQueue) <= Tolerance(ownQueue), $"queue (runtime, own): {string.Join(" ", queue)}");

        // Work items completed: both count up, and the runtime's total reached the service's at its start.
        var items = both.Select(s => s.Server[MetricNames.RuntimeThreadPoolWorkItemsTotal]).ToList();
        Assert.True(items[^1] > items[0], $"work items: {string.Join(" ", items)}");
    }

    [LinuxFact]
    public async Task ASyncOverAsyncService_GetsStarvationThreads_TheSameServiceAwaiting_GetsNone()
    {
        // Arrange: the test's own gRPC service twice, one blocking each call's thread for 50 ms, one awaiting it.
        await using var blocking = await LocalProcess.StartAsync("starving (blocking)", "Harness.StarvingService", [], CancellationToken.None);
        await using var awaiting = await LocalProcess.StartAsync("starving (async)", "Harness.StarvingService", ["--Starving:Style=async"], CancellationToken.None);
        var output = HarnessRun.TempFolder();

        // Act: both loaded with --call, attached with pid=, one series each.
        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "run", "--target", Target(blocking, "blocking"), "--target", Target(awaiting, "async"),
            "--call", StarvingCall, "--data", """{"delayMs":50}""", "--profile", StarvingProfile, "--warm-up", "0", "--output", output).WaitAsync(Bound);

        // Assert
        Assert.True(exitCode == 0, text);
        var run = RawRunReader.Read(HarnessRun.RunFolder(output));
        Assert.DoesNotContain(run.Events, e => e.Kind == "note" && e.Message.Contains("runtime", StringComparison.Ordinal));
        var blocked = Last(run, "blocking");
        var awaited = Last(run, "async");
        Assert.True(blocked[MetricNames.RuntimeThreadPoolStarvationThreadsTotal] > 0, $"blocking: {Describe(blocked)}");
        Assert.Equal(0, awaited[MetricNames.RuntimeThreadPoolStarvationThreadsTotal]);
        Assert.True(awaited[MetricNames.RuntimeThreadPoolThreads] < blocked[MetricNames.RuntimeThreadPoolThreads], $"async: {Describe(awaited)}; blocking: {Describe(blocked)}");
    }

    [LinuxFact]
    public async Task AProcessThatIsNotDotNet_IsOneNote_AndTheRunGoesOn()
    {
        // Arrange: a live process with no .NET runtime (sleep), named as the target's pid.
        await using var service = await LocalProcess.StartAsync("starving (async)", "Harness.StarvingService", ["--Starving:Style=async"], CancellationToken.None);
        using var sleep = Process.Start(new ProcessStartInfo("sleep", "60") { UseShellExecute = false })!;
        var output = HarnessRun.TempFolder();
        try
        {
            // Act
            var (exitCode, text) = await HarnessRun.InvokeAsync(
                "run", "--target", $"grpc={service.Address},metrics={service.AdminAddress},pid={sleep.Id}", "--call", StarvingCall,
                "--data", """{"delayMs":10}""", "--profile", "constant", "--time-scale", "0.02", "--warm-up", "0", "--output", output).WaitAsync(Bound);

            // Assert: served as usual; one line, in the events and on the console, naming the pid; no runtime figures.
            Assert.True(exitCode == 0, text);
            var run = RawRunReader.Read(HarnessRun.RunFolder(output));
            var note = Assert.Single(run.Events, e => e.Kind == "note" && e.Message.Contains("runtime", StringComparison.Ordinal));
            Assert.StartsWith($"no .NET runtime to attach to at pid {sleep.Id} (", note.Message, StringComparison.Ordinal);
            Assert.Single(text.Split('\n'), line => line.Contains($"no .NET runtime to attach to at pid {sleep.Id}", StringComparison.Ordinal));
            var seconds = run.Timelines.Single().Value;
            Assert.True(seconds.Sum(s => s.Requests) > 0, text);
            Assert.DoesNotContain(seconds, s => s.Server.ContainsKey(MetricNames.RuntimeThreadPoolStarvationThreadsTotal));
        }
        finally
        {
            sleep.Kill();
        }
    }

    private static string Target(LocalProcess service, string mode) =>
        $"grpc={service.Address},metrics={service.AdminAddress},mode={mode},pid={service.ServicePid}";

    /// <summary>The last second of the mode's series that holds the runtime's figures.</summary>
    private static IReadOnlyDictionary<string, double> Last(RunData run, string mode)
    {
        var series = Assert.Single(run.Manifest.Series, s => s.Mode == mode);
        return run.Timelines[series.Id].Last(s => s.Server.ContainsKey(MetricNames.RuntimeThreadPoolThreads)).Server;
    }

    private static string Describe(IReadOnlyDictionary<string, double> server) =>
        string.Join(", ", server.Where(p => p.Key.StartsWith("harness_runtime", StringComparison.Ordinal) || p.Key.StartsWith("dotnet_thread_pool", StringComparison.Ordinal)).Select(p => $"{p.Key}={p.Value}"));

    private static double Tolerance(double own) => Math.Max(2, 0.25 * own);

    private static double Median(IEnumerable<double> values)
    {
        var sorted = values.Order().ToList();
        return sorted.Count % 2 == 1 ? sorted[sorted.Count / 2] : (sorted[(sorted.Count / 2) - 1] + sorted[sorted.Count / 2]) / 2;
    }
}
