using Harness.LoadTests.Reporting.Text;

namespace Harness.LoadTests.Reporting.Analysis;

// The knee of the threshold language: knee>=32 (docs/report.md, "Knee").
internal sealed partial record Threshold
{
    public bool IsKnee => Metric == ThresholdMetric.Knee;

    /// <summary>
    /// The knee's load; +∞ when a ramp stayed ideal through its peak (the knee lies beyond it, so <c>knee&gt;=N</c>
    /// passes and <c>knee&lt;N</c> fails); null when the series is not a ramp or none of its levels could be judged.
    /// </summary>
    private static double? MeasureKnee(KneeResult knee) =>
        !knee.IsRamp || knee.NoneJudged ? null : knee.At is { } at ? at.Load : double.PositiveInfinity;

    /// <summary>The knee in words: "knee at 36 users (mean 150 ms, 20 % above the ideal 100 ms from there on)".</summary>
    public static string DescribeKnee(KneeResult knee, bool openModel)
    {
        ArgumentNullException.ThrowIfNull(knee);
        var unit = openModel ? " req/s" : " users";
        if (!knee.IsRamp)
        {
            return "no knee: the load did not rise through three levels after the warm-up";
        }

        var margin = $"{Format.Plain(Analysis.Knee.DefaultMargin * 100)} %";
        if (knee.NoneJudged)
        {
            return $"no knee judged: nothing completed within levels of {Format.Plain(knee.Levels.Max(l => l.Seconds))} s, "
                + $"shorter than the ideal call of {Format.Number(knee.IdealMs)} ms + {margin}";
        }

        if (knee.At is not { } at)
        {
            var peak = $"no knee up to {knee.PeakLoad}{unit} (the peak)";
            return knee.Unjudged > 0
                ? $"{peak}; {knee.Unjudged} of {knee.Levels.Count} levels not judged: nothing completed within them, each shorter than the ideal call + {margin}"
                : knee.LatencyOnly > 0
                ? $"{peak}; {knee.LatencyOnly} of {knee.Levels.Count} levels judged on latency only: shorter than {Format.Plain(Analysis.Knee.ThroughputCalls)} ideal calls"
                : peak;
        }

        var ideal = knee.IdealIsMeasured ? "the ideal" : "the lowest load's mean";
        return knee.Reason == KneeReason.Throughput
            ? $"knee at {at.Load}{unit}: throughput {Format.Number(at.SuccessesPerSecond)} req/s, no longer rising with the load"
            : at.MeanMs is null
            ? $"knee at {at.Load}{unit}: no request succeeded at that load, against {ideal} {Format.Number(knee.IdealMs)} ms"
            : $"knee at {at.Load}{unit}: mean {Format.Number(at.MeanMs)} ms, over {ideal} {Format.Number(knee.IdealMs)} ms + {margin}";
    }
}
