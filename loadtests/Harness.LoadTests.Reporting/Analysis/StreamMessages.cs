using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>
/// A streaming series' messages over its measured seconds: the figures per call (time to the first reply message)
/// and per message (messages a second each way, the gap between reply messages). Counted, as the recorder counts
/// them, in the second each successful call ended (<see cref="StreamSample"/>).
/// </summary>
/// <param name="Calls">Successful streaming calls.</param>
/// <param name="SentPerSecond">Request messages ÷ the series' active seconds.</param>
/// <param name="ReceivedPerSecond">Reply messages ÷ the series' active seconds.</param>
/// <param name="FirstMessage">Time to the first reply message, over the calls that received one.</param>
/// <param name="MessageGap">Inter-message latency: the time between consecutive reply messages of one call.</param>
internal sealed record StreamMessages(
    long Calls, long MessagesSent, long MessagesReceived, double SentPerSecond, double ReceivedPerSecond, LatencyStats FirstMessage, LatencyStats MessageGap)
{
    /// <summary>Reply messages per call.</summary>
    public double ReceivedPerCall => Calls == 0 ? 0 : (double)MessagesReceived / Calls;

    /// <summary>Request messages per call.</summary>
    public double SentPerCall => Calls == 0 ? 0 : (double)MessagesSent / Calls;

    /// <param name="measured">The series' seconds after its warm-up.</param>
    /// <param name="activeSeconds">Those with users or requests: the rates' denominator, as the request rate's.</param>
    /// <returns>Null when no call of the series streamed.</returns>
    public static StreamMessages? From(IReadOnlyList<SecondSample> measured, int activeSeconds)
    {
        ArgumentNullException.ThrowIfNull(measured);
        var streams = measured.Where(s => s.Stream is not null).Select(s => s.Stream!).ToList();
        if (streams.Count == 0)
        {
            return null;
        }

        long sent = streams.Sum(s => s.MessagesSent), received = streams.Sum(s => s.MessagesReceived);
        return new StreamMessages(
            streams.Sum(s => s.Calls),
            sent,
            received,
            activeSeconds == 0 ? 0 : (double)sent / activeSeconds,
            activeSeconds == 0 ? 0 : (double)received / activeSeconds,
            LatencyStats.From(LatencyHistogram.Merge(streams.Select(s => s.FirstMessage))),
            LatencyStats.From(LatencyHistogram.Merge(streams.Select(s => s.MessageGap))));
    }
}
