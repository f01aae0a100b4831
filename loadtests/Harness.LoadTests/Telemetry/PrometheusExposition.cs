using System.Globalization;
using Harness.Metrics;
using static Harness.LoadTests.Telemetry.TelemetryFamilies;

namespace Harness.LoadTests.Telemetry;

/// <summary>
/// The runner's <c>/metrics</c> page (Prometheus text, 0.0.4): the run, its phase, each series' requests, failures and
/// latency histogram since it started, the current series' last second (its quantiles as a summary, users or arrival
/// rate, in flight), and the runner's own process.
/// </summary>
internal static class PrometheusExposition
{
    public static string Render(RunFigures figures, IReadOnlyDictionary<string, double> runner)
    {
        var w = new PrometheusWriter();
        w.Family(RunInfo.Name, RunInfo.Type, RunInfo.Help).Sample(1, [.. figures.Identity.LabelPairs]);
        var phase = figures.Phase;
        w.Family(Phase.Name, Phase.Type, Phase.Help);
        foreach (var name in MetricNames.LoadPhases)
        {
            w.Sample(name == phase ? 1 : 0, (MetricNames.PhaseLabel, name));
        }

        var series = figures.Series();
        var statuses = series.Select(s => (Series: s, Statuses: s.Statuses())).ToList();
        Write(w, Requests, statuses.SelectMany(s => s.Statuses.Select(c => (s.Series, (double)c.Requests, (MetricNames.StatusLabel, c.Status)))));
        Write(w, Failures, statuses.SelectMany(s => s.Statuses.Where(c => c.Failures > 0).Select(c => (s.Series, (double)c.Failures, (MetricNames.StatusLabel, c.Status)))));

        var latencies = series.Select(s => (Series: s, Latency: s.Latency())).ToList();
        w.Family(Latency.Name, Latency.Type, Latency.Help);
        foreach (var (s, (buckets, sum)) in latencies)
        {
            var cumulative = 0L;
            for (var i = 0; i < buckets.Length; i++)
            {
                cumulative += buckets[i];
                var bound = i < LatencyBuckets.Bounds.Count ? LatencyBuckets.Bounds[i].ToString(CultureInfo.InvariantCulture) : "+Inf";
                w.SampleOf("_bucket", cumulative, [.. s.LabelPairs, (MetricNames.BucketLabel, bound)]);
            }

            w.SampleOf("_sum", sum, [.. s.LabelPairs]);
            w.SampleOf("_count", cumulative, [.. s.LabelPairs]);
        }

        // The current series' last second: its quantiles go once the series has ended, so a dashboard shows no stale value.
        var running = figures.Running();
        w.Family(LastSecondLatency.Name, LastSecondLatency.Type, LastSecondLatency.Help);
        foreach (var (s, (buckets, sum)) in latencies)
        {
            if (running.FirstOrDefault(r => r.Series == s).Last is { } last)
            {
                foreach (var (quantile, seconds) in SeriesFigures.Quantiles(last))
                {
                    w.Sample(seconds, [.. s.LabelPairs, (MetricNames.QuantileLabel, quantile)]);
                }
            }

            w.SampleOf("_sum", sum, [.. s.LabelPairs]);
            w.SampleOf("_count", buckets.Sum(), [.. s.LabelPairs]);
        }

        Write(w, figures.Identity.IsOpenModel ? ArrivalRate : Users, running.Select(s => (s.Series, (double)s.Last.Users)));
        Write(w, InFlight, running.Select(s => (s.Series, (double)s.Last.InFlight)));

        WriteProcess(w, runner);
        return w.ToString();
    }

    /// <summary>The harness process's own CPU, memory and threads (<see cref="Running.RunnerSampler.Read"/>).</summary>
    public static void WriteProcess(PrometheusWriter w, IReadOnlyDictionary<string, double> process)
    {
        foreach (var family in Runner)
        {
            if (process.TryGetValue(family.Name, out var value))
            {
                w.Family(family.Name, family.Type, family.Help).Sample(value);
            }
        }
    }

    private static void Write(PrometheusWriter w, Family family, IEnumerable<(SeriesFigures Series, double Value, (string, string) Extra)> samples)
    {
        w.Family(family.Name, family.Type, family.Help);
        foreach (var (series, value, extra) in samples)
        {
            w.Sample(value, [.. series.LabelPairs, extra]);
        }
    }

    private static void Write(PrometheusWriter w, Family family, IEnumerable<(SeriesFigures Series, double Value)> samples)
    {
        w.Family(family.Name, family.Type, family.Help);
        foreach (var (series, value) in samples)
        {
            w.Sample(value, [.. series.LabelPairs]);
        }
    }
}
