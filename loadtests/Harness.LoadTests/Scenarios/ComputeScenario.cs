using Harness.Contracts;
using Harness.LoadTests.Clients;
using Harness.LoadTests.Engine;

namespace Harness.LoadTests.Scenarios;

/// <summary>The CPU-bound operation (experiment S0) against one stack.</summary>
internal static class ComputeScenario
{
    public static Scenario Create(string name, IHarnessClient client, OperationSettings settings, IReadOnlyList<LoadSimulation> load, FirstFailures? firstFailures = null) =>
        GuardedStep.Create(name, load, firstFailures, async context =>
        {
            var reply = await client.ComputeAsync(settings.Iterations, context.CancellationToken);
            return StepResult.Ok(ServerTime.FromReply(reply.ElapsedMs));
        });
}
