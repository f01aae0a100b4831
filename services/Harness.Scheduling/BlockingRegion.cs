namespace Harness.Scheduling;

/// <summary>
/// Marks code that blocks its thread (a synchronous socket read, a sleep, a wait on another work item).
/// On a thread owned by the <see cref="SchedulingMode.Iocp"/> scheduler, entering a region gives the
/// thread's concurrency slot to another work item, as a completion port lets another thread run when an
/// active one blocks; leaving takes it back. Elsewhere it costs one thread-static read and does nothing.
/// </summary>
public static class BlockingRegion
{
    [ThreadStatic]
    private static IBlockingRegionHost? _host;

    [ThreadStatic]
    private static int _depth;

    /// <summary>Enters a region; dispose the result when the blocking call returns. Nested regions count once.</summary>
    public static Scope Enter()
    {
        var host = _host;
        if (host is null)
        {
            return default;
        }

        if (_depth++ == 0)
        {
            host.OnBlockingEnter();
        }

        return new Scope(host);
    }

    /// <summary>Called by a scheduler's worker thread once, before it runs any work item.</summary>
    internal static void AttachCurrentThread(IBlockingRegionHost host)
    {
        _host = host;
        _depth = 0;
    }

    /// <summary>
    /// Called by a scheduler's worker thread after each work item. Returns whether the item left a region
    /// open (an undisposed scope, or one carried across an await), and closes it without telling the host,
    /// which must then treat the item's slot as already given up.
    /// </summary>
    internal static bool CloseAbandoned()
    {
        // A scope disposed on a thread other than the one that entered it drives this thread's depth below
        // zero; reset that too so the next item starts clean.
        var abandoned = _depth > 0;
        _depth = 0;
        return abandoned;
    }

    public readonly struct Scope : IDisposable
    {
        private readonly IBlockingRegionHost? _owner;

        internal Scope(IBlockingRegionHost owner) => _owner = owner;

        public void Dispose()
        {
            if (_owner is not null && --_depth == 0)
            {
                _owner.OnBlockingExit();
            }
        }
    }
}

/// <summary>A scheduler that wants to know when one of its threads blocks.</summary>
internal interface IBlockingRegionHost
{
    void OnBlockingEnter();

    void OnBlockingExit();
}
