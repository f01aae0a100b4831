using System.Diagnostics;

namespace Harness.ServiceDefaults;

/// <summary>Process-wide readings for /metrics: CPU time, memory, OS threads and context switches.</summary>
public readonly record struct ProcessCounters(
    TimeSpan CpuTime,
    long WorkingSetBytes,
    int OsThreads,
    long VoluntaryContextSwitches,
    long InvoluntaryContextSwitches)
{
    private const string StatusPath = "/proc/self/status";

    /// <summary>Reads the counters now. Context switches and OS threads come from /proc and are -1 where it is missing.</summary>
    public static ProcessCounters Read()
    {
        using var process = Process.GetCurrentProcess();
        long voluntary = -1, involuntary = -1;
        var threads = -1;
        if (File.Exists(StatusPath))
        {
            foreach (var line in File.ReadLines(StatusPath))
            {
                if (TryField(line, "voluntary_ctxt_switches:", out var v))
                {
                    voluntary = v;
                }
                else if (TryField(line, "nonvoluntary_ctxt_switches:", out var n))
                {
                    involuntary = n;
                }
                else if (TryField(line, "Threads:", out var t))
                {
                    threads = (int)t;
                }
            }
        }

        return new ProcessCounters(process.TotalProcessorTime, Environment.WorkingSet, threads, voluntary, involuntary);
    }

    internal static bool TryField(string line, string name, out long value)
    {
        value = 0;
        return line.StartsWith(name, StringComparison.Ordinal)
            && long.TryParse(line.AsSpan(name.Length).Trim(), out value);
    }
}
