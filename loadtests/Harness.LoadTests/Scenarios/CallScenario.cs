using Harness.LoadTests.Clients;
using Harness.LoadTests.Engine;

namespace Harness.LoadTests.Scenarios;

/// <summary>
/// Any method or operation (<c>--call</c>) against one target: each request its own rendering of the data template; a
/// streaming call's messages go to the recorder beside its latency.
/// </summary>
internal static class CallScenario
{
    public static Scenario Create(string name, ICallClient client, RequestBody body, IReadOnlyList<LoadSimulation> load, FirstFailures? firstFailures = null) =>
        GuardedStep.Create(name, load, firstFailures, async context =>
        {
            // The template counts from 1; the open model has no users, so {{user}} is 0 there.
            var reply = await client.SendAsync(body.For(context.InvocationNumber + 1, context.CopyNumber + 1), context.CancellationToken);
            return StepResult.Ok(reply.ServerTime) with
            {
                Stream = reply.Stream is { } stream ? new StreamFigures(stream.MessagesSent, stream.MessagesReceived, stream.FirstMessage, stream.MessageGaps) : null,
            };
        });
}
