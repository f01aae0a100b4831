namespace Harness.Scheduling;

/// <summary>
/// An auto-reset event that keeps its own state, so that <see cref="Set"/> with no thread waiting and
/// <see cref="Wait(int)"/> on an event that is already set are each one interlocked operation.
/// Only a thread that really has to block parks on a monitor (a futex/condition variable underneath).
/// </summary>
/// <remarks>
/// Like <see cref="AutoResetEvent"/>, setting an event that is already set has no further effect, and each
/// <see cref="Set"/> releases at most one waiter. Unlike the event in the original "economic" design, any
/// number of threads may wait, and a timed-out waiter never swallows a wake-up meant for it.
/// </remarks>
public sealed class LeanAutoResetEvent
{
    // _state bit 0: signaled. The bits above count threads that committed to block and have not been
    // released yet. Both are never non-zero together: Set only raises the flag when nobody waits, and a
    // waiter only counts itself in when the flag is down.
    private const int SignaledBit = 1;
    private const int WaiterUnit = 2;

    private readonly object _gate = new();
    private int _state;

    // Guarded by _gate: wake-ups that Set handed to committed waiters and that no waiter has taken yet.
    private int _releases;

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
                    ReleaseOne();
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

    private void ReleaseOne()
    {
        lock (_gate)
        {
            _releases++;
            Monitor.Pulse(_gate);
        }
    }

    private bool WaitForRelease(int millisecondsTimeout)
    {
        var deadline = millisecondsTimeout == Timeout.Infinite ? long.MaxValue : Environment.TickCount64 + millisecondsTimeout;
        lock (_gate)
        {
            // Each pass either consumes a release, waits once more, or withdraws; a release always follows
            // the Set that counted this thread out, so the untimed wait below ends.
            while (_releases == 0)
            {
                var remaining = deadline - Environment.TickCount64;
                if (remaining > 0)
                {
                    Monitor.Wait(_gate, remaining >= int.MaxValue ? Timeout.Infinite : (int)remaining);
                    continue;
                }

                if (TryWithdrawWaiter())
                {
                    return false;
                }

                // A Set already counted this thread as released; its release needs _gate, which Wait gives up.
                deadline = long.MaxValue;
            }

            _releases--;
            return true;
        }
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
