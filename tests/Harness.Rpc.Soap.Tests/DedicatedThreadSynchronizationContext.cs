using System.Collections.Concurrent;

namespace Harness.Rpc.Soap.Tests;

/// <summary>
/// A single-threaded context, like a UI context: every posted callback runs on one dedicated thread, which has this
/// context as its Current, so awaits inside those callbacks resume on the same thread.
/// </summary>
internal sealed class DedicatedThreadSynchronizationContext : SynchronizationContext, IDisposable
{
    private readonly BlockingCollection<(SendOrPostCallback Callback, object? State)> _queue = new();
    private readonly Thread _thread;
    private int _posted;

    public DedicatedThreadSynchronizationContext(string name)
    {
        Name = name;
        _thread = new Thread(Pump) { IsBackground = true, Name = name };
        _thread.Start();
    }

    public string Name { get; }

    public int ManagedThreadId => _thread.ManagedThreadId;

    public int PostedCount => Volatile.Read(ref _posted);

    public Exception? CallbackFailure { get; private set; }

    public override void Post(SendOrPostCallback d, object? state)
    {
        Interlocked.Increment(ref _posted);
        _queue.Add((d, state));
    }

    public override void Send(SendOrPostCallback d, object? state)
    {
        if (Environment.CurrentManagedThreadId == ManagedThreadId)
        {
            d(state);
            return;
        }

        using var done = new ManualResetEventSlim();
        Post(s => { try { d(s); } finally { done.Set(); } }, state);
        if (!done.Wait(TimeSpan.FromSeconds(10)))
        {
            throw new TimeoutException($"{Name} did not run a sent callback within 10 s.");
        }
    }

    // Captured copies must still target the dedicated thread.
    public override SynchronizationContext CreateCopy() => this;

    public void Dispose()
    {
        _queue.CompleteAdding();
        _thread.Join(TimeSpan.FromSeconds(5));
        _queue.Dispose();
    }

    private void Pump()
    {
        SetSynchronizationContext(this);
        foreach ((SendOrPostCallback callback, object? state) in _queue.GetConsumingEnumerable())
        {
            try
            {
                callback(state);
            }
            catch (Exception e)
            {
                // Kept for the tests to see instead of tearing down the process.
                CallbackFailure ??= e;
            }
        }
    }
}
