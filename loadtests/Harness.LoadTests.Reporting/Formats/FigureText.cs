using System.Globalization;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;
using static Harness.LoadTests.Reporting.Text.Format;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>How the analysis' own figures are written: ratios and spreads, a target's CPU, what a group or series warns of.</summary>
internal static class FigureText
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>A ratio with its spread when it has one: <c>0.82×</c>, <c>0.82× (0.78–0.86)</c>; an unbounded end is ∞.</summary>
    public static string Ratio(ModeRatio ratio) =>
        ratio.Median is null ? Missing
        : !ratio.HasSpread ? Format.Ratio(ratio.Median)
        : $"{Format.Ratio(ratio.Median)} ({Bound(ratio.Low)}–{Bound(ratio.High)})";

    /// <summary>
    /// What a ratio's verdict says, in words, or empty when it says nothing beyond its interval: <c>worse</c>,
    /// <c>no difference beyond ±5 %</c>, <c>inconclusive: between −4 % and +31 %</c>, <c>single run</c>.
    /// </summary>
    public static string Verdict(ModeRatio ratio) => ratio.Verdict switch
    {
        RatioVerdict.Better => "better",
        RatioVerdict.Worse => "worse",
        RatioVerdict.NoDifference => $"no difference beyond ±{Percent(ModeRatio.Tolerance)}",
        RatioVerdict.Inconclusive => $"inconclusive: between {Change(ratio.Low)} and {Change(ratio.High)}",
        RatioVerdict.SingleRun => "single run",
        RatioVerdict.NoInterval => "no interval",
        _ => string.Empty,
    };

    /// <summary>A ratio, its interval and its verdict: <c>1.03× (0.96–1.31) inconclusive: between −4 % and +31 %</c>.</summary>
    public static string RatioWithVerdict(ModeRatio ratio) =>
        ratio.Verdict == RatioVerdict.Base ? "base" : Verdict(ratio) is { Length: > 0 } words ? $"{Ratio(ratio)} {words}" : Ratio(ratio);

    /// <summary>A ratio as a signed change: 1.31 → <c>+31 %</c>, 0.04 → <c>−96 %</c>; an unbounded end is <c>+∞ %</c>.</summary>
    public static string Change(double? ratio) =>
        ratio is not { } r ? "+∞ %"
        : r > LargestBound ? $"over +{((LargestBound - 1) * 100).ToString("#,0", Invariant)} %"
        : (r - 1) * 100 is var change && change >= 0 ? $"+{Math.Round(change).ToString("#,0", Invariant)} %"
        : $"−{Math.Round(-change).ToString("#,0", Invariant)} %";

    // An interval's end past 100× (or below 1/100×) says only that the run could not tell; its digits would mislead.
    private const double LargestBound = 100;

    /// <summary>A fraction as a percentage: 0.05 → <c>5 %</c>.</summary>
    public static string Percent(double fraction) => $"{(fraction * 100).ToString("0.#", Invariant)} %";

    /// <summary>A median with its bounds: <c>412 (398–430)</c>; a single value alone.</summary>
    public static string Spread(Spread? spread) =>
        spread is null ? Missing
        : spread.Count == 1 ? Number(spread.Median)
        : $"{Number(spread.Median)} ({Number(spread.Low)}–{Number(spread.High)})";

    /// <summary>What the bounds of a mode's spread are: the range of its repetitions, or a confidence interval of the median.</summary>
    public static string Bounds(Spread? spread) =>
        spread is null ? Missing
        : spread.Count == 1 ? "one run"
        : spread.Confidence is { } c ? $"{(c * 100).ToString("0.#", Invariant)} % CI" : "min–max";

    /// <summary>A target's CPU limit: <c>2</c>, <c>1.5</c>, <c>none</c>, or — when the target did not say.</summary>
    public static string CpuLimit(TargetCpu cpu) =>
        !cpu.LimitReported ? Missing : cpu.LimitCores is { } cores ? Plain(cores) : "none";

    /// <summary>A target's CPU in words: <c>2 processors, CPU limit 1.5</c>.</summary>
    public static string Cpu(TargetCpu cpu) =>
        $"{(cpu.Processors is { } p ? $"{p.ToString(Invariant)} processor{(p == 1 ? "" : "s")}" : "processors " + Missing)}, CPU limit {CpuLimit(cpu)}";

    /// <summary>
    /// The warning for a group whose targets had different processor counts (<see cref="TargetCpu.ProcessorsDiffer"/>),
    /// or null when they did not.
    /// </summary>
    public static string? CpuMismatch(ModeComparisonGroup group) =>
        !TargetCpu.ProcessorsDiffer(group.Rows.Select(r => r.Summary.Cpu)) ? null
        : "The targets compared here had different processor counts ("
            + string.Join(", ", group.Rows.Where(r => r.Summary.Cpu.Processors is not null).Select(r => $"{r.Label}: {Cpu(r.Summary.Cpu)}"))
            + "). The iocp concurrency and the ThreadPool's starting threads follow the processor count, which the runtime takes from the CPU limit, "
            + "so these modes did not run the same experiment; give every target the same CPU (docs/kubernetes.md, \"CPU\").";

    /// <summary>
    /// What the reader must know about a series' server samples, or null when every measured second under load
    /// (users, an arrival rate or completed requests) has one: none at all (the target's /metrics never answered,
    /// or it has none), or a gap (peaks come from the sampled seconds only).
    /// </summary>
    public static string? ServerCoverage(SeriesSummary summary) =>
        summary.ServerSamples == 0 && summary.Seconds > 0
            ? "no server samples — the target's /metrics never answered during this series (it has none, or it was down or unreachable), so its server columns and charts are empty."
        : summary.ActiveServerSamples < summary.ActiveSeconds
            ? $"server metrics for {Integer(summary.ActiveServerSamples)} of {Integer(summary.ActiveSeconds)} s under load — the peaks of threads and queue come from those seconds only, and the server charts leave the others empty."
        : null;

    private static string Bound(double? ratio) =>
        ratio is not { } r ? "∞"
        : r > LargestBound ? $">{LargestBound.ToString("#,0", Invariant)}"
        : r.ToString(r >= 100 ? "#,0" : r >= 10 ? "0.0" : "0.00", Invariant);
}
