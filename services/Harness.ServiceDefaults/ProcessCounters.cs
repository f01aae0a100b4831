using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Harness.ServiceDefaults;

/// <summary>Process-wide readings for /metrics: CPU time, memory, OS threads and context switches.</summary>
/// <remarks>
/// Context switches come from <c>getrusage(RUSAGE_SELF)</c>, which sums every thread of the process, exited ones
/// included; <c>/proc/self/status</c> would count the main thread alone. Values are -1 where unavailable.
/// </remarks>
public readonly record struct ProcessCounters(
    TimeSpan CpuTime,
    long WorkingSetBytes,
    int OsThreads,
    long VoluntaryContextSwitches,
    long InvoluntaryContextSwitches)
{
    private const string StatusPath = "/proc/self/status";
    private const int RusageSelf = 0;

    public static ProcessCounters Read()
    {
        using var process = Process.GetCurrentProcess();
        long voluntary = -1, involuntary = -1;
        if (!OperatingSystem.IsWindows() && getrusage(RusageSelf, out var usage) == 0)
        {
            voluntary = usage.VoluntaryContextSwitches;
            involuntary = usage.InvoluntaryContextSwitches;
        }

        return new ProcessCounters(process.TotalProcessorTime, Environment.WorkingSet, ReadOsThreads(), voluntary, involuntary);
    }

    internal static bool TryField(string line, string name, out long value)
    {
        value = 0;
        return line.StartsWith(name, StringComparison.Ordinal)
            && long.TryParse(line.AsSpan(name.Length).Trim(), out value);
    }

    private static int ReadOsThreads()
    {
        try
        {
            if (File.Exists(StatusPath))
            {
                foreach (var line in File.ReadLines(StatusPath))
                {
                    if (TryField(line, "Threads:", out var threads))
                    {
                        return (int)threads;
                    }
                }
            }
        }
        catch (IOException)
        {
            // A process out of descriptors (EMFILE) cannot open the file; the reading is unavailable, not fatal.
        }

        return -1;
    }

    [DllImport("libc", SetLastError = true)]
    private static extern int getrusage(int who, out RUsage usage);

    // struct rusage on 64-bit Linux and macOS: two timevals, then fourteen longs.
    [StructLayout(LayoutKind.Sequential)]
    private struct RUsage
    {
        public long UserSeconds, UserMicroseconds, SystemSeconds, SystemMicroseconds;
        public long MaxResidentSet, SharedMemory, UnsharedData, UnsharedStack;
        public long MinorFaults, MajorFaults, Swaps, BlockInputs, BlockOutputs;
        public long MessagesSent, MessagesReceived, Signals;
        public long VoluntaryContextSwitches, InvoluntaryContextSwitches;
    }
}
