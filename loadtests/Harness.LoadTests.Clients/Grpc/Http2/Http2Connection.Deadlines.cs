namespace Harness.LoadTests.Clients.Grpc.Http2;

/// <summary>
/// The calls' deadlines (<c>--timeout</c>), looked for by one timer per connection rather than one per call: a call
/// only records when it is due (<see cref="Http2Stream.WatchDeadline"/>), and every <see cref="DeadlineSweep"/> the
/// connection fails those of its open streams that are past it; the writer fails the ones still waiting to be opened.
/// A timer per call cost the runner about a tenth more CPU per call (two timer-queue operations each) on the
/// common path, where no call ever reaches its deadline; a deadline now fires up to one sweep late.
/// </summary>
internal sealed partial class Http2Connection
{
    /// <summary>How often a connection looks for calls past their deadline: how late a deadline may fire.</summary>
    internal static readonly TimeSpan DeadlineSweep = TimeSpan.FromMilliseconds(100);

    private readonly List<Http2Stream> _waitingForReady = []; // calls started before the server's SETTINGS (under _sync)
    private ITimer? _sweep;

    private void StartSweeping() =>
        _sweep = TimeProvider.System.CreateTimer(static s => ((Http2Connection)s!).Sweep(), this, DeadlineSweep, DeadlineSweep);

    private void StopSweeping() => _sweep?.Dispose();

    // A call that waits for the connection's first SETTINGS is in neither the writer's queue nor the open streams.
    private void WaitForReady(Http2Stream stream)
    {
        lock (_sync)
        {
            _waitingForReady.Add(stream);
        }
    }

    private void Ready(Http2Stream stream)
    {
        lock (_sync)
        {
            _waitingForReady.Remove(stream);
        }
    }

    /// <summary>
    /// The connect gave up at the call timeout: the calls waiting for it whose deadline falls before <paramref name="due"/>
    /// (the next sweep) fail as DEADLINE_EXCEEDED, as the sweep would fail them, not as the connection's failure.
    /// </summary>
    private void ExpireWaitingDueBy(long due)
    {
        List<Http2Stream> expired;
        lock (_sync)
        {
            expired = [.. _waitingForReady.Where(stream => stream.IsPastDeadline(due))];
        }

        expired.ForEach(stream => stream.ExpireDeadline());
    }

    private void Sweep()
    {
        var now = Environment.TickCount64;
        List<Http2Stream>? expired = null;
        lock (_sync)
        {
            foreach (var stream in _streams.Values.Concat(_waitingForReady))
            {
                if (stream.IsPastDeadline(now))
                {
                    (expired ??= []).Add(stream);
                }
            }
        }

        expired?.ForEach(stream => stream.ExpireDeadline());
        if (_writerWaiting)
        {
            // Calls queued behind the server's stream limit: the writer looks at their deadlines when woken.
            _writes.Writer.TryWrite(Wake);
        }
    }
}
