namespace Harness.Scheduling;

/// <summary>
/// An auto-reset event that keeps its own state, so that <see cref="Set"/> with no thread waiting and
/// <see cref="Wait(int)"/> on an event that is already set are each one interlocked operation. Only a thread
/// that really has to block waits on the OS-level semaphore underneath, and only a Set that releases such a
/// thread signals it.
/// </summary>
/// <remarks>
/// Like <see cref="AutoResetEvent"/>, setting an event that is already set has no further effect, and each
/// <see cref="Set"/> releases at most one waiter. Unlike the single-consumer event that inspired it, any number
/// of threads may wait, and a waiter that times out never swallows a wake-up meant for it.
/// </remarks>
public sealed class LeanAutoResetEvent : IDisposable
{
    // _state bit 0: signaled. The bits above count threads that committed to block and have not been
    // released yet. Both are never non-zero together: Set only raises the flag when nobody waits, and a
    // waiter only counts itself in when the flag is down.
    private const int SignaledBit = 1;
    private const int WaiterUnit = 2;

    // Holds one count per release a Set handed to a committed waiter and no waiter has taken yet.
    private readonly Semaphore _releases = new(0, int.MaxValue);
    private int _state;

    public LeanAutoResetEvent(bool initialState = false) => _state = initialState ? SignaledBit : 0;

    /// <summary>Whether the event is set (a snapshot).</summary>
    public bool IsSet => (Volatile.Read(ref _state) & SignaledBit) != 0;

    /// <summary>Threads blocked in <see cref="Wait(int)"/> that no <see cref="Set"/> has released yet (a snapshot).</summary>
    public int WaitingThreads => Volatile.Read(ref _state) / WaiterUnit;

    /// <summary>Releases one waiting thread, or leaves the event set if none waits.</summary>
    public void Set()
    {
        var state = Volatile.Read(ref _state);
        while (true)
        {
            if ((state & SignaledBit) != 0)
            {
                return;
            }

            var next = state >= WaiterUnit ? state - WaiterUnit : SignaledBit;
            var observed = Interlocked.CompareExchange(ref _state, next, state);
            if (observed == state)
            {
                if (next != SignaledBit)
                {
                    _releases.Release();
                }

                return;
            }

            state = observed;
        }
    }

    /// <summary>Waits until the event is set, then resets it.</summary>
    public void Wait() => Wait(Timeout.Infinite);

    /// <summary>Waits until the event is set or the timeout elapses; returns whether it was set (and is now reset).</summary>
    /// <param name="millisecondsTimeout">Milliseconds to wait, 0 to test, or <see cref="Timeout.Infinite"/>.</param>
    public bool Wait(int millisecondsTimeout)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(millisecondsTimeout, Timeout.Infinite);

        var state = Volatile.Read(ref _state);
        while (true)
        {
            int next;
            if ((state & SignaledBit) != 0)
            {
                next = 0;
            }
            else if (millisecondsTimeout == 0)
            {
                return false;
            }
            else
            {
                next = state + WaiterUnit;
            }

            var observed = Interlocked.CompareExchange(ref _state, next, state);
            if (observed == state)
            {
                return next == 0 || WaitForRelease(millisecondsTimeout);
            }

            state = observed;
        }
    }

    /// <summary>Frees the OS semaphore. Only call it once no thread can wait on or release a waiter of this event.</summary>
    public void Dispose() => _releases.Dispose();

    private bool WaitForRelease(int millisecondsTimeout)
    {
        if (_releases.WaitOne(millisecondsTimeout))
        {
            return true;
        }

        if (TryWithdrawWaiter())
        {
            return false;
        }

        // A Set counted this thread out just as its wait timed out; the release it posts belongs to this thread.
        _releases.WaitOne();
        return true;
    }

    private bool TryWithdrawWaiter()
    {
        var state = Volatile.Read(ref _state);
        while (state >= WaiterUnit)
        {
            var observed = Interlocked.CompareExchange(ref _state, state - WaiterUnit, state);
            if (observed == state)
            {
                return true;
            }

            state = observed;
        }

        return false;
    }
}
