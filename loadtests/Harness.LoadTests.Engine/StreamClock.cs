using Harness.LoadTests.Shared;

namespace Harness.LoadTests.Engine;

/// <summary>
/// Times one streaming call for its <see cref="StreamFigures"/>: start it as the call is sent, tell it of every
/// message written and read, and put <see cref="Figures"/> in the step's <see cref="StepResult.Stream"/>. One call's
/// replies must be read in order by one reader; its sends may be counted from any thread.
/// </summary>
/// <example>
/// <code>
/// var clock = StreamClock.Start();
/// using var call = client.ListOrders(request, cancellationToken: context.CancellationToken);
/// clock.Sent();
/// await foreach (var reply in call.ResponseStream.ReadAllAsync(context.CancellationToken))
/// {
///     clock.Received();
/// }
/// return StepResult.Ok() with { Stream = clock.Figures };
/// </code>
/// </example>
public sealed class StreamClock
{
    private readonly MessageClock _clock = new();

    private StreamClock()
    {
    }

    /// <summary>The figures so far: a snapshot, safe to keep while the clock is told of more messages.</summary>
    public StreamFigures Figures => new(_clock.MessagesSent, _clock.MessagesReceived, _clock.FirstMessage, _clock.MessageGaps);

    /// <summary>A clock whose call started now.</summary>
    public static StreamClock Start() => new();

    /// <summary>One request message was written.</summary>
    public void Sent() => _clock.Sent();

    /// <summary>One reply message was read, now.</summary>
    public void Received() => _clock.Received();
}
