namespace Harness.Scheduling;

/// <summary>Runs asynchronous operations on a scheduler, as the gRPC interceptor does for each call.</summary>
public static class WorkSchedulerExtensions
{
    /// <summary>
    /// Starts <paramref name="operation"/> on <paramref name="scheduler"/> with the scheduler's
    /// <see cref="WorkSchedulerSynchronizationContext"/> current, so its await continuations also run there.
    /// </summary>
    /// <returns>
    /// A task with the operation's result, exception or cancellation. Its own continuations do not run on
    /// the scheduler: they are queued to the ThreadPool, so the caller's code after the await holds no slot.
    /// </returns>
    /// <exception cref="ObjectDisposedException">The scheduler has been disposed.</exception>
    public static Task<T> RunAsync<T>(this IWorkScheduler scheduler, Func<Task<T>> operation)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        ArgumentNullException.ThrowIfNull(operation);
        var completion = new TaskCompletionSource<T>(TaskCreationOptions.RunContinuationsAsynchronously);
        WorkSchedulerSynchronizationContext.For(scheduler).Post(
            static s =>
            {
                var (operation, completion) = ((Func<Task<T>>, TaskCompletionSource<T>))s!;
                _ = CompleteAsync(operation, completion);
            },
            (operation, completion));
        return completion.Task;
    }

    /// <inheritdoc cref="RunAsync{T}(IWorkScheduler, Func{Task{T}})"/>
    public static Task RunAsync(this IWorkScheduler scheduler, Func<Task> operation)
    {
        ArgumentNullException.ThrowIfNull(operation);
        return scheduler.RunAsync(async () =>
        {
            await operation().ConfigureAwait(false);
            return true;
        });
    }

    /// <summary>Runs <paramref name="action"/> on <paramref name="scheduler"/> with the scheduler's context current.</summary>
    /// <inheritdoc cref="RunAsync{T}(IWorkScheduler, Func{Task{T}})"/>
    public static Task RunAsync(this IWorkScheduler scheduler, Action action)
    {
        ArgumentNullException.ThrowIfNull(action);
        return scheduler.RunAsync(() =>
        {
            action();
            return Task.FromResult(true);
        });
    }

    // Never faults: every outcome goes to the completion source.
    private static async Task CompleteAsync<T>(Func<Task<T>> operation, TaskCompletionSource<T> completion)
    {
        try
        {
            // ConfigureAwait(false) here only skips one extra hop back to the scheduler for this frame; the
            // operation's own awaits still capture the scheduler's context.
            completion.TrySetResult(await operation().ConfigureAwait(false));
        }
        catch (OperationCanceledException ex)
        {
            completion.TrySetCanceled(ex.CancellationToken);
        }
        catch (Exception ex)
        {
            completion.TrySetException(ex);
        }
    }
}
