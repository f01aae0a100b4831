using System.Collections.Concurrent;
using System.Diagnostics;

namespace Harness.LoadTests.Engine.Tests;

/// <summary>Counts how many calls of a fake step run at once, overall and per copy.</summary>
internal sealed class ConcurrencyProbe
{
    private readonly int[] _perCopy = new int[64];
    private readonly ConcurrentQueue<(TimeSpan At, int Running)> _starts = new();
    private readonly ConcurrentQueue<int> _copies = new();
    private readonly long _startTimestamp = Stopwatch.GetTimestamp();
    private int _running;
    private int _maxRunning;
    private int _maxPerCopy;

    public int MaxRunning => Volatile.Read(ref _maxRunning);

    public int MaxPerCopy => Volatile.Read(ref _maxPerCopy);

    /// <summary>At each call's start: time since the probe was made, and calls running including this one.</summary>
    public IReadOnlyList<(TimeSpan At, int Running)> Starts => [.. _starts];

    /// <summary>The copy number of each call, in the order the calls started.</summary>
    public IReadOnlyList<int> Copies => [.. _copies];

    public async Task<StepResult> RunAsync(ScenarioContext context, TimeSpan hold)
    {
        var running = Interlocked.Increment(ref _running);
        _copies.Enqueue(context.CopyNumber);
        _starts.Enqueue((Stopwatch.GetElapsedTime(_startTimestamp), running));
        Raise(ref _maxRunning, running);
        if (context.CopyNumber >= 0)
        {
            Raise(ref _maxPerCopy, Interlocked.Increment(ref _perCopy[context.CopyNumber]));
        }

        try
        {
            await Task.Delay(hold, context.CancellationToken);
            return StepResult.Ok();
        }
        finally
        {
            if (context.CopyNumber >= 0)
            {
                Interlocked.Decrement(ref _perCopy[context.CopyNumber]);
            }

            Interlocked.Decrement(ref _running);
        }
    }

    private static void Raise(ref int max, int value)
    {
        var seen = Volatile.Read(ref max);
        while (value > seen)
        {
            var previous = Interlocked.CompareExchange(ref max, value, seen);
            if (previous == seen)
            {
                return;
            }

            seen = previous;
        }
    }
}
