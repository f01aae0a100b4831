namespace Harness.LoadTests.Recording;

/// <summary>One streaming call's messages, as <see cref="RunRecorder.RecordRequest"/> takes them (the engine's StreamFigures).</summary>
/// <param name="MessagesSent">Request messages written.</param>
/// <param name="MessagesReceived">Reply messages read.</param>
/// <param name="FirstMessage">From the call's start to its first reply message; null when none came.</param>
/// <param name="MessageGaps">Between consecutive reply messages; at most one fewer than <paramref name="MessagesReceived"/>.</param>
public sealed record StreamCall(long MessagesSent, long MessagesReceived, TimeSpan? FirstMessage, IReadOnlyList<TimeSpan> MessageGaps)
{
    internal void Validate()
    {
        if (MessagesSent < 0 || MessagesReceived < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(MessagesSent), "Message counts cannot be negative.");
        }

        if (FirstMessage < TimeSpan.Zero || MessageGaps.Any(gap => gap < TimeSpan.Zero))
        {
            throw new ArgumentOutOfRangeException(nameof(FirstMessage), "Message times cannot be negative.");
        }

        if (MessageGaps.Count > Math.Max(0, MessagesReceived - 1) || (FirstMessage is null) != (MessagesReceived == 0))
        {
            throw new ArgumentException("A stream has a first message exactly when it received one, and one gap fewer than its messages at most.", nameof(MessageGaps));
        }
    }
}
