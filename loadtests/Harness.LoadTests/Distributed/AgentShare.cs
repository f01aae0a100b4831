using Harness.LoadTests.Engine;

namespace Harness.LoadTests.Distributed;

/// <summary>
/// An agent's part of the load: every stage's users (closed model) or arrivals per interval (open model) split evenly
/// over the agents, the remainder going one each to the lowest indexes. At every stage the agents' shares add up to
/// the profile's value exactly, and no two agents differ by more than one user (or arrival per interval). An agent
/// whose share is 0 still runs every stage, so its series have the same timeline as the others', with no requests.
/// </summary>
internal static class AgentShare
{
    /// <summary>Agent <paramref name="index"/>'s part of <paramref name="total"/> split over <paramref name="count"/> agents.</summary>
    public static int Of(int total, int index, int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(total);
        ArgumentOutOfRangeException.ThrowIfLessThan(count, 1);
        ArgumentOutOfRangeException.ThrowIfNegative(index);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(index, count);
        return (total / count) + (index < total % count ? 1 : 0);
    }

    /// <summary>
    /// The stages with each one's users or rate replaced by the agent's share; durations and intervals unchanged.
    /// Steps stages reach the engine as one constant stage per step, so each step is split on its own.
    /// </summary>
    public static IReadOnlyList<LoadSimulation> Of(IReadOnlyList<LoadSimulation> stages, int index, int count) =>
        [.. stages.Select(LoadSimulation (stage) => stage switch
        {
            LoadSimulation.RampingConstant s => s with { Copies = Of(s.Copies, index, count) },
            LoadSimulation.KeepConstant s => s with { Copies = Of(s.Copies, index, count) },
            LoadSimulation.Inject s => s with { Rate = Of(s.Rate, index, count) },
            LoadSimulation.RampingInject s => s with { Rate = Of(s.Rate, index, count) },
            // A burst needs a copy; an agent with none sits the burst's time out (profiles do not write bursts).
            LoadSimulation.IterationsForConstant s => Of(s.Copies, index, count) is > 0 and var copies
                ? s with { Copies = copies }
                : new LoadSimulation.Pause(s.During),
            LoadSimulation.Pause s => s,
            _ => throw new ArgumentException($"Stage {stage.GetType().Name} is of a type the agents cannot split.", nameof(stages)),
        })];
}
