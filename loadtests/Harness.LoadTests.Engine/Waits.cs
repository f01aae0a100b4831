namespace Harness.LoadTests.Engine;

/// <summary>The waits a run's loops share; none of them throws for cancellation or a timeout.</summary>
internal static class Waits
{
    // Whole milliseconds, rounded up: Task.Delay truncates, and a 0 ms delay would spin. Cancellation just ends the wait.
    public static async Task Delay(TimeSpan wait, CancellationToken cancellationToken)
    {
        var milliseconds = Math.Max(1, Math.Ceiling(wait.TotalMilliseconds));
        await Task.Delay(TimeSpan.FromMilliseconds(milliseconds), cancellationToken)
            .ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
    }

    /// <summary>Waits for <paramref name="task"/> until <paramref name="timeout"/> or cancellation, whichever is first.</summary>
    public static async Task WaitAsync(Task task, TimeSpan timeout, CancellationToken cancellationToken)
    {
        try
        {
            await task.WaitAsync(timeout, cancellationToken).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            // Out of time; the caller decides what happens to what is left.
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The caller cancelled the wait.
        }
    }

    public static TimeSpan Min(TimeSpan a, TimeSpan b) => a < b ? a : b;
}
