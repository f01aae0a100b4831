namespace Harness.LoadTests.Distributed.Coordination;

internal sealed partial class CoordinatorState
{
    /// <summary>Where the agents stand, for <c>harness coordinate --metrics-port</c> (Telemetry/CoordinatorExposition).</summary>
    public CoordinatorFigures Figures()
    {
        lock (_lock)
        {
            var agents = _agents.OfType<AgentState>().ToList();
            return new CoordinatorFigures(
                Count,
                agents.Count,
                agents.Count(a => a.Dead),
                agents.Count(a => a.ExitCode is not null && !a.WithoutRun),
                _abort is not null);
        }
    }
}

/// <param name="Lost">Agents taken for dead: silent for longer than the silence limit.</param>
/// <param name="Uploaded">Agents whose run has arrived.</param>
internal sealed record CoordinatorFigures(int Expected, int Registered, int Lost, int Uploaded, bool Aborted);
