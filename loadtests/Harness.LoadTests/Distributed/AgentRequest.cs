namespace Harness.LoadTests.Distributed;

/// <summary>What <c>--agent</c> and its companions asked for, before the coordinator confirms the index.</summary>
/// <param name="Index">The agent's index, or null to take the lowest free one the coordinator has.</param>
/// <param name="Coordinator">The coordinator's base URL.</param>
/// <param name="AgentTimeout">How long to keep trying to reach the coordinator at the start.</param>
internal sealed record AgentRequest(int? Index, int Count, Uri Coordinator, TimeSpan AgentTimeout);
