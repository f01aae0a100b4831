using System.Globalization;

namespace Harness.LoadTests.Hosting;

/// <summary>
/// The processors a local service may run on, as <c>taskset -c</c> takes them (<c>1</c>, <c>0-1</c>, <c>0,2-3</c>).
/// The service is started under <c>taskset</c> (util-linux), so the runtime sees the set from its first instruction:
/// <see cref="Environment.ProcessorCount"/> in the service is then the set's size, and with it the ThreadPool's
/// minimum, the <c>iocp</c> mode's concurrency and the GC's heap count. Setting the affinity after the start would
/// leave threads created before it on every processor (on Linux an affinity is per thread).
/// </summary>
public sealed record CpuAffinity
{
    private CpuAffinity(string list, IReadOnlyList<int> processors)
    {
        List = list;
        Processors = processors;
    }

    /// <summary>The list as given to <c>taskset -c</c>, normalised (<c>0-1</c>).</summary>
    public string List { get; }

    /// <summary>The processor numbers, ascending, each once.</summary>
    public IReadOnlyList<int> Processors { get; }

    /// <summary>The command that runs another under this affinity: <c>taskset -c LIST</c>.</summary>
    public IReadOnlyList<string> CommandPrefix => ["taskset", "-c", List];

    /// <summary>Parses a processor list and checks it against the machine's processors.</summary>
    /// <param name="machineProcessors">How many processors the machine has online (<see cref="OnlineProcessors"/>).</param>
    /// <exception cref="FormatException">Not a list of numbers and ranges, or a processor the machine does not have; the message says which.</exception>
    public static CpuAffinity Parse(string text, int machineProcessors)
    {
        ArgumentNullException.ThrowIfNull(text);
        var valid = $"write processor numbers 0–{machineProcessors - 1} and ranges, e.g. 1, 0-1 or 0,2";
        var processors = new SortedSet<int>();
        foreach (var item in text.Split(',', StringSplitOptions.TrimEntries))
        {
            var bounds = item.Split('-', StringSplitOptions.TrimEntries);
            if (bounds.Length is < 1 or > 2 || !bounds.All(b => int.TryParse(b, NumberStyles.None, CultureInfo.InvariantCulture, out _)))
            {
                throw new FormatException($"'{text}': '{item}' is not a number or a range; {valid}.");
            }

            var (first, last) = (int.Parse(bounds[0], CultureInfo.InvariantCulture), int.Parse(bounds[^1], CultureInfo.InvariantCulture));
            if (first > last)
            {
                throw new FormatException($"'{text}': the range '{item}' runs backwards; {valid}.");
            }

            if (last >= machineProcessors)
            {
                throw new FormatException($"'{text}': this machine has processors 0–{machineProcessors - 1} only; {valid}.");
            }

            for (var p = first; p <= last; p++)
            {
                processors.Add(p);
            }
        }

        return new CpuAffinity(Normalised(processors), [.. processors]);
    }

    /// <summary>
    /// The machine's online processors, from <c>/sys/devices/system/cpu/online</c>; not <see cref="Environment.ProcessorCount"/>,
    /// which shrinks when this process itself runs under an affinity (a runner started with <c>taskset -c 0</c> may still place
    /// its services on processor 1).
    /// </summary>
    public static int OnlineProcessors()
    {
        try
        {
            var online = File.ReadAllText("/sys/devices/system/cpu/online").Trim();
            return Parse(online, int.MaxValue).Processors[^1] + 1;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or FormatException)
        {
            return Environment.ProcessorCount;
        }
    }

    /// <summary>Consecutive numbers written as ranges: 0,1,2,5 → <c>0-2,5</c>.</summary>
    private static string Normalised(SortedSet<int> processors)
    {
        var parts = new List<string>();
        int? start = null, previous = null;
        foreach (var p in processors.Append(int.MinValue))
        {
            if (start is not null && p != previous + 1)
            {
                parts.Add(start == previous ? $"{start}" : $"{start}-{previous}");
                start = null;
            }

            start ??= p;
            previous = p;
        }

        return string.Join(",", parts);
    }
}
