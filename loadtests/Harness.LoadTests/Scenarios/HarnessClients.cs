using Harness.Contracts;
using Harness.LoadTests.Targets;

namespace Harness.LoadTests.Scenarios;

/// <summary>The typed client of a target's stack.</summary>
internal static class HarnessClients
{
    public static IHarnessClient For(ServiceTarget target) =>
        target.Stack == Stacks.Soap ? new HarnessSoapClient(target.ServiceAddress) : new HarnessGrpcClient(target.ServiceAddress);
}
