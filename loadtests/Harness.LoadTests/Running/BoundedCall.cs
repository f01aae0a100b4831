namespace Harness.LoadTests.Running;

/// <summary>
/// One call outside the load (the runner's warm-up, the ideal's lone calls) that cannot outlast its bound, whatever the
/// server or a user's step does: the clients give up at <c>--timeout</c> themselves, but a step of the user's own may
/// ignore its token, and the run must still end.
/// </summary>
internal static class BoundedCall
{
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
