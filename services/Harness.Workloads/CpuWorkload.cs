using System.Diagnostics;

namespace Harness.Workloads;

/// <summary>What one <see cref="CpuWorkload.Run"/> produced and where.</summary>
/// <param name="Result">The largest Fibonacci number not above 100 (always 89; returned so the loop cannot be optimised away).</param>
/// <param name="ThreadId">The managed thread that ran the loop.</param>
/// <param name="Elapsed">Wall-clock time of the loop alone.</param>
/// <param name="Iterations">The iterations the loop ran.</param>
public readonly record struct ComputeResult(long Result, int ThreadId, TimeSpan Elapsed, int Iterations);

/// <summary>The CPU-bound operation: the loop of experiment S0 (docs/experiments.md), with no I/O and no allocation inside.</summary>
public static class CpuWorkload
{
    public const int FibonacciCeiling = 100;

    /// <summary>
    /// Iterations between two looks at the cancellation token: 0.3 ms of loop at the 4.6 ns an iteration takes on
    /// the project's machine, so an abandoned call frees its core and slot within about that long, while the check
    /// costs one read per chunk, not per iteration (docs/scheduling.md has both figures).
    /// </summary>
    public const int CancellationCheckInterval = 1 << 16;

    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled before the loop ended.</exception>
    public static ComputeResult Run(int iterations, CancellationToken cancellationToken = default)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(iterations, 1);

        var stopwatch = Stopwatch.StartNew();
        long result = 0;

        // The token is read between chunks; the inner loop is the original one, untouched.
        for (var left = iterations; left > 0; left -= CancellationCheckInterval)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var chunk = Math.Min(left, CancellationCheckInterval);
            for (var i = 0; i < chunk; i++)
            {
                result = LargestFibonacciAtMost(FibonacciCeiling);
            }
        }

        stopwatch.Stop();
        return new ComputeResult(result, Environment.CurrentManagedThreadId, stopwatch.Elapsed, iterations);
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
