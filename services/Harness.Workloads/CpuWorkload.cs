using System.Diagnostics;

namespace Harness.Workloads;

/// <summary>What one <see cref="CpuWorkload.Run"/> produced and where.</summary>
/// <param name="Result">The largest Fibonacci number not above 100 (always 89; returned so the loop cannot be optimised away).</param>
/// <param name="ThreadId">The managed thread that ran the loop.</param>
/// <param name="Elapsed">Wall-clock time of the loop alone.</param>
public readonly record struct ComputeResult(long Result, int ThreadId, TimeSpan Elapsed);

/// <summary>The CPU-bound operation: the loop of seed 000, with no I/O and no allocation inside.</summary>
public static class CpuWorkload
{
    public const int FibonacciCeiling = 100;

    public static ComputeResult Run(int iterations)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(iterations, 1);

        var stopwatch = Stopwatch.StartNew();
        long result = 0;
        for (var i = 0; i < iterations; i++)
        {
            result = LargestFibonacciAtMost(FibonacciCeiling);
        }

        stopwatch.Stop();
        return new ComputeResult(result, Environment.CurrentManagedThreadId, stopwatch.Elapsed);
    }

    // Kept out of line so each iteration does the whole walk; an inlined constant loop could be folded away.
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    internal static long LargestFibonacciAtMost(int ceiling)
    {
        long previous = 0;
        long current = 1;
        while (current + previous <= ceiling)
        {
            var next = current + previous;
            previous = current;
            current = next;
        }

        return current;
    }
}
