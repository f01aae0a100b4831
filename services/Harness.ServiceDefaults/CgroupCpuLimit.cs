using System.Globalization;

namespace Harness.ServiceDefaults;

/// <summary>
/// The CPU limit the container's cgroup sets, in cores (quota ÷ period): what <c>limits.cpu</c>, <c>--cpus</c> or
/// compose's <c>cpus</c> became. The runtime derives <see cref="Environment.ProcessorCount"/> from it (rounded up), and
/// with it the iocp concurrency and the ThreadPool's starting threads, so a report must say what each target had.
/// </summary>
/// <remarks>
/// Read where a container sees its own cgroup: cgroup v2's <c>cpu.max</c> at the mount's root, else cgroup v1's
/// <c>cpu.cfs_quota_us</c> and <c>cpu.cfs_period_us</c> under <c>cpu/</c> (or <c>cpu,cpuacct/</c>). Outside a container
/// those are the root cgroup's, which has no limit; a limit set on a nested cgroup of the host (a systemd slice) is
/// not looked for, though <see cref="Environment.ProcessorCount"/> still shows it. Never throws: /metrics reads it on
/// the dedicated thread, where an exception would end the service.
/// </remarks>
public static class CgroupCpuLimit
{
    private const string Root = "/sys/fs/cgroup";

    /// <summary>The limit in cores, or null when none is set or none can be read.</summary>
    public static double? Read() => Read(Root);

    /// <param name="root">Where the cgroup file system is mounted; tests pass a folder of their own.</param>
    internal static double? Read(string root)
    {
        try
        {
            if (ReadText(Path.Combine(root, "cpu.max")) is { } max)
            {
                // "max 100000" (no limit) or "200000 100000": quota and period in microseconds.
                var fields = max.Split(' ', StringSplitOptions.RemoveEmptyEntries);
                return fields.Length == 2 ? Cores(fields[0], fields[1]) : null;
            }

            foreach (var controller in new[] { "cpu", "cpu,cpuacct" })
            {
                var folder = Path.Combine(root, controller);
                if (ReadText(Path.Combine(folder, "cpu.cfs_quota_us")) is { } quota && ReadText(Path.Combine(folder, "cpu.cfs_period_us")) is { } period)
                {
                    // A quota of -1 is v1's "no limit".
                    return Cores(quota, period);
                }
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or System.Security.SecurityException)
        {
            // Unreadable (out of descriptors, a locked-down mount): report no limit rather than fail the snapshot.
        }

        return null;
    }

    private static string? ReadText(string path) => File.Exists(path) ? File.ReadAllText(path).Trim() : null;

    private static double? Cores(string quota, string period) =>
        long.TryParse(quota, NumberStyles.None, CultureInfo.InvariantCulture, out var q)
        && long.TryParse(period, NumberStyles.None, CultureInfo.InvariantCulture, out var p) && q > 0 && p > 0
            ? (double)q / p
            : null;
}
