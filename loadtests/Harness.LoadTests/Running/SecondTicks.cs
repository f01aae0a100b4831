using System.Diagnostics;

namespace Harness.LoadTests.Running;

/// <summary>The once-a-second loops of a series (its scraper, the runner's own sampler) wait for the next whole second of their clock.</summary>
internal static class SecondTicks
{
    /// <summary>Waits until <paramref name="clock"/> reaches second <paramref name="second"/> + 1; false when cancelled.</summary>
    public static async Task<bool> WaitForNextAsync(Stopwatch clock, int second, CancellationToken cancellationToken)
    {
        var next = TimeSpan.FromSeconds(second + 1) - clock.Elapsed;
        if (next <= TimeSpan.Zero)
        {
            return !cancellationToken.IsCancellationRequested;
        }

        try
        {
            await Task.Delay(next, cancellationToken);
            return true;
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }
}
