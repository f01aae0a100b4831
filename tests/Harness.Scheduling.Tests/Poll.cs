using System.Diagnostics;

namespace Harness.Scheduling.Tests;

internal static class Poll
{
    /// <summary>Checks <paramref name="condition"/> every millisecond until it holds or <paramref name="timeout"/> passes.</summary>
    public static bool Until(Func<bool> condition, TimeSpan timeout)
    {
        var stopwatch = Stopwatch.StartNew();
        while (!condition())
        {
            if (stopwatch.Elapsed > timeout)
            {
                return condition();
            }

            Thread.Sleep(1);
        }

        return true;
    }

    /// <summary>Like <see cref="Until"/>, for conditions expected within microseconds: spins, then yields, without sleeping.</summary>
    public static bool UntilSpinning(Func<bool> condition, TimeSpan timeout)
    {
        var stopwatch = Stopwatch.StartNew();
        var spinner = default(SpinWait);
        while (!condition())
        {
            if (stopwatch.Elapsed > timeout)
            {
                return condition();
            }

            spinner.SpinOnce(sleep1Threshold: -1);
        }

        return true;
    }

    /// <summary>Keeps the CPU busy for <paramref name="duration"/> without touching the kernel.</summary>
    public static void Spin(TimeSpan duration)
    {
        var stopwatch = Stopwatch.StartNew();
        var x = 0UL;
        while (stopwatch.Elapsed < duration)
        {
            for (var i = 0; i < 1000; i++)
            {
                x = (x * 6364136223846793005UL) + 1442695040888963407UL;
            }
        }

        GC.KeepAlive(x);
    }
}
