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
        // Arrange: the runner starts the gRPC service in threadpool mode itself and attaches to it by default. The load
        // keeps the pool's queue long and slow to change: 8 users, each call fanning out 16 work items that sleep
        // 100 ms (Thread.Sleep, which the pool is not told of), so threads are added only by starvation, one at a time.
        var output = HarnessRun.TempFolder();

        // Act
        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "run", "--stacks", "grpc", "--operations", "call-third-party", "--style", "thread-sleep", "--fanout", "16", "--delay-ms", "100",
            "--modes", "threadpool", "--profile", "constant", "--users", "8", "--time-scale", "0.04", "--warm-up", "1s", "--output", output).WaitAsync(Bound);

        // Assert: the seconds holding both the service's own harness_threadpool_* and the runtime's figures.
        Assert.True(exitCode == 0, text);
        var run = RawRunReader.Read(HarnessRun.RunFolder(output));
        Assert.DoesNotContain(run.Events, e => e.Kind == "note" && e.Message.Contains("runtime", StringComparison.Ordinal));
        var both = run.Timelines.Single().Value
            .Where(s => s.Server.ContainsKey(MetricNames.RuntimeThreadPoolThreads) && s.Server.ContainsKey(MetricNames.ThreadPoolThreads))
            .ToList();
        Assert.True(both.Count >= 4, $"{both.Count} seconds with both figures\n{text}");

        // Both read ThreadPool.ThreadCount and .PendingWorkItemCount, /metrics at the start of each second and the
        // meter when the target's once-a-second collection runs (recorded in the second it ran: up to a few hundred ms
        // later, the attach's delay). Second by second they agree within 2 or 25 % of the service's own value,
        // whichever is larger, in at least half of the seconds: 2 is the pool's thread step in that time, and 25 % what
        // this queue drains or grows by in a few hundred ms.
        AssertAgree("threads", both, MetricNames.RuntimeThreadPoolThreads, MetricNames.ThreadPoolThreads);
        AssertAgree("queue", both, MetricNames.RuntimeThreadPoolQueueLength, MetricNames.ThreadPoolPendingWorkItems);
        Assert.Contains(both, s => s.Server[MetricNames.ThreadPoolPendingWorkItems] >= 20);

        // Work items completed: the runtime's total never goes back, and it reached the service's at its start. (Not
        // "grows in every run": once, under the whole suite's load, the meter gave one value for all five seconds while
        // its threads and queue agreed with /metrics; why is not yet known.)
        var items = both.Select(s => s.Server[MetricNames.RuntimeThreadPoolWorkItemsTotal]).ToList();
        Assert.True(items.Zip(items.Skip(1)).All(p => p.Second >= p.First), $"work items: {string.Join(" ", items)}");
        Assert.True(items[^1] >= both[0].Server[MetricNames.ThreadPoolCompletedWorkItemsTotal], $"work items: {string.Join(" ", items)}");
    }

    [LinuxFact]
    public async Task ASyncOverAsyncService_GetsStarvationThreads_TheSameServiceAwaiting_GetsNone_ByPidOrBySocket()
    {
        // Arrange: the test's own gRPC service twice, one blocking each call's thread for 50 ms, one awaiting it.
        await using var blocking = await LocalProcess.StartAsync("starving (blocking)", "Harness.StarvingService", [], CancellationToken.None);
        await using var awaiting = await LocalProcess.StartAsync("starving (async)", "Harness.StarvingService", ["--Starving:Style=async"], CancellationToken.None);
        var output = HarnessRun.TempFolder();

        // Act: both loaded with --call, one series each; one attached by its pid, the other by its runtime's socket.
        var socket = Assert.Single(Directory.GetFiles(Path.GetTempPath(), $"dotnet-diagnostic-{awaiting.ServicePid}-*-socket"));
        var (exitCode, text) = await HarnessRun.InvokeAsync(
            "run", "--target", $"{Target(blocking, "blocking")},pid={blocking.ServicePid}", "--target", $"{Target(awaiting, "async")},diag={socket}",
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
        $"grpc={service.Address},metrics={service.AdminAddress},mode={mode}";

    /// <summary>The last second of the mode's series that holds the runtime's figures.</summary>
    private static IReadOnlyDictionary<string, double> Last(RunData run, string mode)
    {
        var series = Assert.Single(run.Manifest.Series, s => s.Mode == mode);
        return run.Timelines[series.Id].Last(s => s.Server.ContainsKey(MetricNames.RuntimeThreadPoolThreads)).Server;
    }

    private static string Describe(IReadOnlyDictionary<string, double> server) =>
        string.Join(", ", server.Where(p => p.Key.StartsWith("harness_runtime", StringComparison.Ordinal) || p.Key.StartsWith("dotnet_thread_pool", StringComparison.Ordinal)).Select(p => $"{p.Key}={p.Value}"));

    /// <summary>The median second's difference, less its tolerance (2, or 25 % of the service's value), is not above 0.</summary>
    private static void AssertAgree(string what, IReadOnlyList<SecondSample> seconds, string runtimeName, string ownName)
    {
        var pairs = seconds.Select(s => (Runtime: s.Server[runtimeName], Own: s.Server[ownName])).ToList();
        var excess = pairs.Select(p => Math.Abs(p.Runtime - p.Own) - Math.Max(2, 0.25 * p.Own)).Order().ToList();
        Assert.True(excess[(excess.Count - 1) / 2] <= 0, $"{what} (runtime, own): {string.Join(" ", pairs)}");
    }
}
