using Harness.LoadTests.Shared;

namespace Harness.LoadTests.Engine;

/// <summary>
/// What one streaming call carried, measured by its step (<see cref="StreamClock"/>): the messages each way, the time
/// to the first message received, and the gaps between the messages received. The call's latency stays the engine's
/// own, from sending the call to its end.
/// </summary>
/// <param name="MessagesSent">Request messages written: 1 for a server stream, the stream's length for a client or bidirectional one.</param>
/// <param name="MessagesReceived">Reply messages read: 1 for a client stream, the stream's length otherwise.</param>
/// <param name="FirstMessage">From the call's start to its first reply message; null when none came.</param>
/// <param name="MessageGaps">
/// Between consecutive reply messages, in order (one fewer than the messages received), at most
/// <see cref="MaxGaps"/>: a longer stream keeps its first gaps and its count.
/// </param>
public sealed record StreamFigures(long MessagesSent, long MessagesReceived, TimeSpan? FirstMessage, IReadOnlyList<TimeSpan> MessageGaps)
{
    /// <summary>The most gaps one call keeps: 512 KiB of them, so an endless stream cannot take the runner's memory.</summary>
    public const int MaxGaps = MessageClock.MaxGaps;
}
