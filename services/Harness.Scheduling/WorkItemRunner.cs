namespace Harness.Scheduling;

/// <summary>Runs work items for one scheduler so that a throwing item is counted and reported, never fatal.</summary>
internal sealed class WorkItemRunner
{
    private long _completed;
    private long _failed;

    public long Completed => Interlocked.Read(ref _completed);

    public long Failed => Interlocked.Read(ref _failed);

    public void Run(WorkItem item, Action<Exception>? onException) => Run(item.Invoke, onException);

    public void Run(Action work, Action<Exception>? onException)
    {
        try
        {
            work();
        }
        catch (Exception ex)
        {
            // Counted before Completed so that a reader who sees an item completed also sees it failed.
            Interlocked.Increment(ref _failed);
            Report(ex, onException);
        }
        finally
        {
            Interlocked.Increment(ref _completed);
        }
    }

    private static void Report(Exception exception, Action<Exception>? onException)
    {
        if (onException is null)
        {
            return;
        }

        try
        {
            onException(exception);
        }
        catch (Exception)
        {
            // A faulty handler must not cost the worker its thread either; the failure is already counted.
        }
    }
}
