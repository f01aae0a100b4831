using System.Diagnostics;

namespace Harness.LoadTests.Shared;

/// <summary>
/// Times one streaming call's messages: its sends counted from any thread (a bidirectional call writes while it
/// reads), its replies read in order by one reader, so it takes no lock. A source file linked into the engine (behind
/// its public StreamClock, for scenarios of one's own) and the call clients, so both measure a stream alike.
/// </summary>
internal sealed class MessageClock
{
    /// <summary>The most gaps one call keeps: 512 KiB of them, so an endless stream cannot take the runner's memory.</summary>
    public const int MaxGaps = 65_536;

    private readonly long _started = Stopwatch.GetTimestamp();
    private readonly List<TimeSpan> _gaps = [];
    private long _first;
    private long _last;
    private long _sent;
    private long _received;

    public long MessagesSent => Interlocked.Read(ref _sent);

    public long MessagesReceived => _received;

    /// <summary>From the clock's start to the first reply message; null before one came.</summary>
    public TimeSpan? FirstMessage => _received == 0 ? null : Stopwatch.GetElapsedTime(_started, _first);

    /// <summary>A copy of the gaps so far: safe to keep while the clock runs on.</summary>
    public TimeSpan[] MessageGaps => [.. _gaps];

    public void Sent() => Interlocked.Increment(ref _sent);

    public void Received()
    {
        var now = Stopwatch.GetTimestamp();
        if (_received++ == 0)
        {
            _first = now;
        }
        else if (_gaps.Count < MaxGaps)
        {
            _gaps.Add(Stopwatch.GetElapsedTime(_last, now));
        }

        _last = now;
    }
}
