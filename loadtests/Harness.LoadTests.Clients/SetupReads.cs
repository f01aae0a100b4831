using Harness.LoadTests.Shared;

namespace Harness.LoadTests.Clients;

/// <summary>
/// The bounds of what a <c>--call</c>'s setup reads from the user's server before any load (a WSDL and its imports, the
/// server's gRPC reflection): at most <see cref="MaxBytes"/> in all, within the run's <c>--timeout</c> in all. A server
/// that never answers, or answers without end, is refused with the bound and the address named, as any setup refusal
/// (exit code 2), instead of holding the command or growing it by what it sends.
/// </summary>
internal static class SetupReads
{
    /// <summary>16 MiB, as the runner's /metrics reads: a WSDL with its schemas, or a service's descriptors, is kilobytes to a few MB.</summary>
    public const int MaxBytes = 16 * 1024 * 1024;

    /// <summary>The size bound as the refusals write it.</summary>
    public const string MaxBytesText = "16 MiB";

    /// <summary>The time bound as the refusals write it: <c>--timeout 3s</c>, <c>--timeout 250ms</c>, <c>--timeout 2m</c>.</summary>
    public static string TimeoutText(TimeSpan timeout) => $"--timeout {DurationText.Format(timeout)}";
}
