using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Clients;

/// <summary>
/// Keeps a flood of one event from filling the log: the first at its own level, then at most one a second, the
/// others in between at Debug. A server that sends GOAWAY on every connection, or breaks the protocol on each, gets a
/// line a second at Warning however fast it does it; the counters (<see cref="ClientEventSource"/>) count every one.
/// </summary>
/// <param name="clock">The time it reads (tests); the system's when null.</param>
internal sealed class LogThrottle(TimeProvider? clock = null)
{
    private static readonly TimeSpan Interval = TimeSpan.FromSeconds(1);

    private readonly TimeProvider _clock = clock ?? TimeProvider.System;
    private long _next = long.MinValue;

    /// <summary><paramref name="level"/> when no event of this throttle took it in the last second, else Debug.</summary>
    public LogLevel Level(LogLevel level)
    {
        if (level <= LogLevel.Debug)
        {
            return level;
        }

        var now = _clock.GetTimestamp();
        var next = Volatile.Read(ref _next);
        var after = now + (long)(Interval.TotalSeconds * _clock.TimestampFrequency);
        return now >= next && Interlocked.CompareExchange(ref _next, after, next) == next ? level : LogLevel.Debug;
    }
}
