using Harness.LoadTests.Hosting;

namespace Harness.LoadTests.Running;

/// <summary>
/// Runtime settings of the load runner's own process, applied first thing in <c>Main</c>, before any socket or
/// thread-pool work: the load generator must never be what saturates.
/// </summary>
internal static class RunnerRuntime
{
    /// <summary>The minimum of worker and I/O threads the runner keeps ready.</summary>
    public const int MinThreads = 64;

    /// <summary>
    /// Raises the ThreadPool's minimum (with its slow injection on 2 cores, a burst of virtual users would otherwise
    /// wait for threads and the client would measure itself) and runs socket completions on the socket event threads
    /// unless <see cref="ServiceEnvironment.InlineCompletions"/> was set (to 0 or 1) by whoever started the runner:
    /// on the quiet 2-core machine it took 10–18 % less of the runner's CPU per request (docs/runner-cost.md).
    /// The local services never inherit it (<see cref="LocalProcess"/>): they are measured as they would run alone.
    /// </summary>
    public static void Apply()
    {
        ThreadPool.GetMinThreads(out var workers, out var completionPorts);
        ThreadPool.SetMinThreads(Math.Max(workers, MinThreads), Math.Max(completionPorts, MinThreads));

        // Read once, by the socket engine's static initialiser, on first use of a socket: nothing has used one yet.
        if (Environment.GetEnvironmentVariable(ServiceEnvironment.InlineCompletions) is null)
        {
            Environment.SetEnvironmentVariable(ServiceEnvironment.InlineCompletions, "1");
        }
    }

    /// <summary>The runner's settings that differ from what <see cref="Apply"/> chooses, for the report's command line.</summary>
    public static IReadOnlyList<KeyValuePair<string, string>> Overrides() =>
        Environment.GetEnvironmentVariable(ServiceEnvironment.InlineCompletions) is { } value && value != "1"
            ? [KeyValuePair.Create(ServiceEnvironment.InlineCompletions, value)]
            : [];
}
