using Harness.LoadTests.Distributed.Coordination;
using Harness.Metrics;
using static Harness.LoadTests.Telemetry.TelemetryFamilies;

namespace Harness.LoadTests.Telemetry;

/// <summary>
/// <c>harness coordinate --metrics-port</c>'s page: how many agents the run waits for, how many registered, were lost
/// or uploaded their run, whether it was aborted, and the coordinator's own process. The load's figures are the
/// agents' own (each serves them with <c>run --metrics-port</c>); a PromQL <c>sum</c> adds them up.
/// </summary>
internal static class CoordinatorExposition
{
    public static string Render(string runId, CoordinatorFigures figures, IReadOnlyDictionary<string, double> process)
    {
        var run = (MetricNames.RunLabel, runId);
        var w = new PrometheusWriter();
        w.Gauge(MetricNames.CoordinatorAgentsExpected, "Agents the run waits for (--agents).", figures.Expected, run);
        w.Family(MetricNames.CoordinatorAgents, Gauge, "Agents by state: registered, lost (silent past --silence-limit), uploaded (their run arrived).")
            .Sample(figures.Registered, run, (MetricNames.StateLabel, "registered"))
            .Sample(figures.Lost, run, (MetricNames.StateLabel, "lost"))
            .Sample(figures.Uploaded, run, (MetricNames.StateLabel, "uploaded"));
        w.Gauge(MetricNames.CoordinatorAborted, "1 once the run is aborted (an agent missing, lost, or gone without a run), else 0.", figures.Aborted ? 1 : 0, run);
        PrometheusExposition.WriteProcess(w, process);
        return w.ToString();
    }
}
