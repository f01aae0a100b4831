using System.Globalization;
using Harness.LoadTests.Reporting.Analysis;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>How figures are written in every report (invariant culture, so reports diff cleanly across machines).</summary>
internal static class Format
{
    public const string Missing = "—";

    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>About three significant digits, thousands grouped: 4,012 · 412 · 41.2 · 4.12 · 0.412.</summary>
    public static string Number(double? value)
    {
        if (value is not { } v || double.IsNaN(v) || double.IsInfinity(v))
        {
            return Missing;
        }

        var magnitude = Math.Abs(v);
        var format = magnitude >= 100 ? "#,0" : magnitude >= 10 ? "#,0.0" : magnitude >= 1 ? "0.00" : "0.###";
        return v.ToString(format, Invariant);
    }

    public static string Integer(double? value) =>
        value is { } v && !double.IsNaN(v) ? Math.Round(v).ToString("#,0", Invariant) : Missing;

    /// <summary>A fraction (0.0123) as a percentage (1.23 %).</summary>
    public static string Rate(double? fraction) =>
        fraction is { } f ? (f * 100).ToString(f == 0 ? "0" : f * 100 >= 10 ? "0.0" : "0.00", Invariant) + " %" : Missing;

    public static string Ratio(double? ratio) =>
        ratio is { } r ? r.ToString(r >= 100 ? "#,0" : r >= 10 ? "0.0" : "0.00", Invariant) + "×" : Missing;

    /// <summary>A ratio with its spread when it has one: <c>0.82×</c>, <c>0.82× (0.78–0.86)</c>; an unbounded end is ∞.</summary>
    public static string Ratio(ModeRatio ratio) =>
        ratio.Median is null ? Missing
        : !ratio.HasSpread ? Ratio(ratio.Median)
        : $"{Ratio(ratio.Median)} ({Bound(ratio.Low)}–{Bound(ratio.High)})";

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

    public static string Change(double? percent) =>
        percent is not { } p ? "n/a"
        : Math.Abs(p) < 0.05 ? "0.0 %"
        : (p > 0 ? "+" : string.Empty) + p.ToString(Math.Abs(p) >= 100 ? "#,0" : "0.0", Invariant) + " %";

    /// <summary>Seconds on a run's time axis: 5 · 47.5 · 1,030.</summary>
    public static string Seconds(double value) => value.ToString("#,0.#", Invariant);

    public static string Plain(double value) => value.ToString("0.###", Invariant);

    /// <summary>A length of time in whole seconds, in its largest units: 45 s · 10 min · 2 min 30 s · 1 h 5 min.</summary>
    public static string Duration(int seconds)
    {
        int h = seconds / 3600, min = seconds % 3600 / 60, s = seconds % 60;
        var parts = new[] { (h, "h"), (min, "min"), (s, "s") }.Where(p => p.Item1 != 0).Select(p => $"{p.Item1.ToString("#,0", Invariant)} {p.Item2}").ToList();
        return parts.Count == 0 ? "0 s" : string.Join(' ', parts);
    }

    private static string Bound(double? ratio) => ratio is { } r ? r.ToString(r >= 100 ? "#,0" : r >= 10 ? "0.0" : "0.00", Invariant) : "∞";

    public static string Csv(double? value) => value is { } v && !double.IsNaN(v) ? Math.Round(v, 3).ToString("0.###", Invariant) : string.Empty;

    public static string ByStatus(IReadOnlyList<KeyValuePair<string, long>> byStatus) =>
        byStatus.Count == 0 ? Missing : string.Join(", ", byStatus.Select(p => $"{p.Key} {p.Value.ToString("#,0", Invariant)}"));

    public static string Parameters(IReadOnlyDictionary<string, string> parameters) =>
        parameters.Count == 0 ? Missing : string.Join(", ", parameters.OrderBy(p => p.Key, StringComparer.Ordinal).Select(p => $"{p.Key}={p.Value}"));

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
}
