using System.Globalization;
using System.Runtime.InteropServices;
using Harness.Agreements;
using Harness.LoadTests.Scenarios;
using Harness.LoadTests.Targets;

namespace Harness.LoadTests.Commands;

/// <summary>
/// The file descriptors a closed-model run needs at its peak, against the per-process limit (RLIMIT_NOFILE). Past
/// it, connections fail part-way through the run; this says so before any load instead. SOAP is on HTTP/1.1, where
/// each call in flight holds a connection of its own: one descriptor in the runner and one in the service per user.
/// The services call the stub over HTTP/1.1 too, so the blocking and async styles hold one more descriptor per call
/// to the stub in flight, on either stack. gRPC's calls share a few HTTP/2 connections and need none per call.
/// </summary>
internal static class DescriptorBudget
{
    /// <summary>Descriptors a process keeps for itself besides those connections: the runtime, logs, pipes, the scraper.</summary>
    /// <remarks>
    /// Measured on .NET 10 (Linux): the runtime keeps each loaded assembly's file open, twice, so an idle SOAP service
    /// holds about 260 and one serving 16,000 connections 282 besides them; the runner about 165. With 256 kept, a
    /// SOAP run at the limit ran the service out of descriptors mid-run (docs/results.md, S1).
    /// </remarks>
    public const int Reserve = 512;

    /// <summary>One line saying why the run would exceed <paramref name="limit"/>, or null when it fits (or nothing is known).</summary>
    /// <param name="peakUsers">The profile's peak virtual users; null for an open-model profile, whose calls in flight are not known in advance.</param>
    /// <param name="localServices">True when the runner starts the services, which inherit its limit; an external service's limit is its own.</param>
    /// <param name="limit">Descriptors one process may open; null when unknown or unlimited.</param>
    public static string? Check(
        IReadOnlyList<string> stacks, IReadOnlyList<string> operations, OperationSettings settings, int? peakUsers, bool localServices, long? limit)
    {
        if (peakUsers is not { } users || limit is not { } max)
        {
            return null;
        }

        var soap = stacks.Contains(Stacks.Soap);
        var stubCalls = operations.Contains(Operations.CallThirdParty) && CallsTheStub(settings.Style) ? StubCallsInFlight(settings) : 0;
        long runner = soap ? users : 0;
        long service = (soap ? users : 0) + (localServices ? (long)users * stubCalls : 0);
        var needed = Math.Max(runner, service);
        if (needed + Reserve <= max)
        {
            return null;
        }

        var perUser = service > runner ? 1 + stubCalls : 1;
        var fits = Math.Max(0, (max - Reserve) / perUser);
        var why = service > runner && stubCalls > 0
            ? $"each holds {(soap ? "one connection from the runner and " : "")}{stubCalls} to the stub ({settings.Style}, fanout {settings.Fanout}) in the service"
            : "SOAP (HTTP/1.1) holds one connection per call in flight, in the runner and in the service";
        return $"--users {N(users)} needs about {N(needed)} file descriptors per process ({why}), above this machine's limit of {N(max)} (RLIMIT_NOFILE, `ulimit -Hn`; {Reserve} kept for the process itself). Use --users {N(fits)} or fewer, raise the limit, or use --stacks grpc with --style task-delay or task-wait, which need none per call.";
    }

    /// <summary>This process's limit on open descriptors (the .NET runtime raises the soft limit to the hard one at start), or null when unknown or unlimited.</summary>
    public static long? ProcessLimit()
    {
        if (OperatingSystem.IsWindows())
        {
            return null;
        }

        var resource = OperatingSystem.IsMacOS() ? 8 : 7; // RLIMIT_NOFILE
        return getrlimit(resource, out var limit) == 0 && limit.Current is > 0 and < (ulong)long.MaxValue ? (long)limit.Current : null;
    }

    private static bool CallsTheStub(string style) => CallStyles.Parse(style) is CallStyle.Blocking or CallStyle.Async;

    private static int StubCallsInFlight(OperationSettings settings) =>
        settings.Parallelism > 0 ? Math.Min(settings.Fanout, settings.Parallelism) : settings.Fanout;

    private static string N(long value) => value.ToString("N0", CultureInfo.InvariantCulture);

    [DllImport("libc", SetLastError = true)]
    private static extern int getrlimit(int resource, out RLimit limit);

    [StructLayout(LayoutKind.Sequential)]
    private struct RLimit
    {
        public ulong Current;
        public ulong Maximum;
    }
}
