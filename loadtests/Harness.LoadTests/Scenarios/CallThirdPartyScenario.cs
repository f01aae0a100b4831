using Harness.Contracts;
using Harness.LoadTests.Clients;
using Harness.LoadTests.Engine;

namespace Harness.LoadTests.Scenarios;

/// <summary>The slow third-party operation (experiments S1–S3) against one stack.</summary>
internal static class CallThirdPartyScenario
{
    public static Scenario Create(string name, IHarnessClient client, OperationSettings settings, IReadOnlyList<LoadSimulation> load, FirstFailures? firstFailures = null) =>
        GuardedStep.Create(name, load, firstFailures, async context =>
        {
            var reply = await client.CallThirdPartyAsync(
                settings.Fanout, settings.DelayMs, settings.Style, settings.Parallelism, context.CancellationToken);

            // A reply that made fewer calls than asked is a wrong answer, not a success.
            return reply.Calls == settings.Fanout
                ? StepResult.Ok(ServerTime.FromReply(reply.ElapsedMs))
                : StepResult.Fail("incomplete-fanout");
        });
}
