using System.Diagnostics;

namespace Harness.Scheduling.Benchmarks;

/// <summary>
/// Posts 50 items at once, each sleeping 1 s inside a <see cref="BlockingRegion"/>, to a scheduler built from
/// default options, and times how long the last one takes to finish.
/// </summary>
internal static class BlockingBurst
{
    private const int Items = 50;
    private static readonly TimeSpan ItemSleep = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan GiveUpAfter = TimeSpan.FromMinutes(2);

    public static int Run(IReadOnlyList<string> modeNames)
    {
        Console.WriteLine($"{Items} items x Thread.Sleep({ItemSleep.TotalMilliseconds:0} ms) in a BlockingRegion, posted at once; {Environment.ProcessorCount} cores");
        Console.WriteLine("| mode | all done (s) | most threads seen |");
        Console.WriteLine("|---|---:|---:|");
        foreach (var name in modeNames)
        {
            if (!SchedulingOptions.TryParseMode(name, out var mode))
            {
                Console.Error.WriteLine($"Unknown mode '{name}'. Valid modes: {string.Join(", ", SchedulingOptions.ModeNames.Keys)}.");
                return 2;
            }

            var (elapsed, threads) = Measure(new SchedulingOptions { Mode = mode });
            Console.WriteLine($"| {name} | {(elapsed is { } e ? e.TotalSeconds.ToString("0.00") : $"> {GiveUpAfter.TotalSeconds:0}")} | {threads} |");
        }

        return 0;
    }

    private static (TimeSpan? Elapsed, int Threads) Measure(SchedulingOptions options)
    {
        using var scheduler = WorkSchedulerFactory.Create(options);
        using var done = new CountdownEvent(Items);
        var stopwatch = Stopwatch.StartNew();
        for (var i = 0; i < Items; i++)
        {
            scheduler.Post(_ =>
            {
                using (BlockingRegion.Enter())
                {
                    Thread.Sleep(ItemSleep);
                }

                done.Signal();
            }, null);
        }

        // Sample the thread count while waiting; bounded by GiveUpAfter.
        var mostThreads = 0;
        while (!done.Wait(TimeSpan.FromMilliseconds(50)))
        {
            mostThreads = Math.Max(mostThreads, scheduler.GetCounters().ThreadsTotal);
            if (stopwatch.Elapsed > GiveUpAfter)
            {
                return (null, mostThreads);
            }
        }

        var elapsed = stopwatch.Elapsed;
        return (elapsed, Math.Max(mostThreads, scheduler.GetCounters().ThreadsTotal));
    }
}
