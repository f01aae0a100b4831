using Harness.LoadTests.Hosting;

namespace Harness.LoadTests.Running;

/// <summary>
/// Runtime settings of the load runner's own process, applied by <see cref="HarnessApp.RunAsync"/> before the command
/// line is read: the load generator must never be what saturates.
/// </summary>
internal static class RunnerRuntime
{
    /// <summary>The minimum of worker and I/O threads the runner keeps ready.</summary>
    public const int MinThreads = 64;

    /// <summary>
    /// Raises the ThreadPool's minimum: with its slow injection on 2 cores, a burst of virtual users would otherwise
    /// wait for threads and the client would measure itself.
    /// </summary>
    /// <remarks>
    /// Inline socket completions (<see cref="ServiceEnvironment.InlineCompletions"/>) stay off by default: on the
    /// 2-core machine they took 6–23 % less of the runner's CPU per request at 32 near-empty calls in flight, but at
    /// 2,000 calls of a 1 s wait they took more CPU and added latency to gRPC's p99 (docs/runner-cost.md). The
    /// variable given to the runner still turns them on for it alone.
    /// </remarks>
    public static void Apply()
    {
        ThreadPool.GetMinThreads(out var workers, out var completionPorts);
        ThreadPool.SetMinThreads(Math.Max(workers, MinThreads), Math.Max(completionPorts, MinThreads));
    }

    /// <summary>The runner's settings that differ from its defaults, for the report's command line.</summary>
    public static IReadOnlyList<KeyValuePair<string, string>> Overrides() =>
        Environment.GetEnvironmentVariable(ServiceEnvironment.InlineCompletions) is "1"
            ? [KeyValuePair.Create(ServiceEnvironment.InlineCompletions, "1")]
            : [];
}
