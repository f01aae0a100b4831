using Harness.LoadTests.Distributed;

namespace Harness.LoadTests.Running;

internal sealed partial record RunOptions
{
    /// <summary>This process's part in a distributed run (<c>harness run --agent</c>); null when it runs alone.</summary>
    public AgentSettings? Agent { get; init; }
}
