namespace Harness.LoadTests.Running;

/// <summary>
/// One call outside the load (the runner's warm-up, the ideal's lone calls) that cannot outlast its bound, whatever the
/// server or a user's step does: the clients give up at <c>--timeout</c> themselves, but a step of the user's own may
/// ignore its token, and the run must still end.
/// </summary>
internal static class BoundedCall
{
    /// <summary>
    /// How long past a call's own timeout its bound waits, so that the client reports its own failure first (the lean
    /// gRPC client looks for deadlines every 100 ms, so its DEADLINE_EXCEEDED can come a little after the timeout).
    /// </summary>
    public static readonly TimeSpan Grace = TimeSpan.FromSeconds(1);

    /// <summary>Runs <paramref name="call"/>; past <paramref name="bound"/> it is cancelled and left behind.</summary>
    /// <exception cref="TimeoutException">The call did not end within <paramref name="bound"/>.</exception>
    public static async Task RunAsync(Func<CancellationToken, Task> call, TimeSpan bound, CancellationToken cancellationToken)
    {
        using var abandon = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var task = call(abandon.Token);
        try
        {
            await task.WaitAsync(bound, cancellationToken).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            await abandon.CancelAsync().ConfigureAwait(false);

            // Whatever it ends with later is nobody's to see.
            _ = task.ContinueWith(static t => _ = t.Exception, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted | TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
            throw;
        }
    }
}
