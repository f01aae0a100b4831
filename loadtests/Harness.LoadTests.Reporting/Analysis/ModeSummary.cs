using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>The figures modes are compared on.</summary>
internal enum ModeFigure
{
    Mean,
    P50,
    P90,
    P99,
    P999,
    P9999,
    Max,
    RequestsPerSecond,
    ErrorRate,
    PeakThreads,
    ContextSwitchesPerRequest,
    IntendedMean,
    IntendedP99,
}

/// <summary>How each <see cref="ModeFigure"/> is read from a series, and which way is better.</summary>
internal static class ModeFigures
{
    public static IReadOnlyList<ModeFigure> All { get; } = Enum.GetValues<ModeFigure>();

    /// <summary>The series' figure; null when not measured (no successful request for latency, no server samples).</summary>
    public static double? Read(SeriesSummary summary, ModeFigure figure)
    {
        ArgumentNullException.ThrowIfNull(summary);
        var latency = summary.Latency.Count > 0 ? summary.Latency : null;
        var intended = summary.IntendedLatency is { Count: > 0 } i ? i : null;
        return figure switch
        {
            ModeFigure.Mean => latency?.MeanMs,
            ModeFigure.P50 => latency?.P50Ms,
            ModeFigure.P90 => latency?.P90Ms,
            ModeFigure.P99 => latency?.P99Ms,
            ModeFigure.P999 => latency?.P999Ms,
            ModeFigure.P9999 => latency?.P9999Ms,
            ModeFigure.Max => latency?.MaxMs,
            ModeFigure.RequestsPerSecond => summary.RequestsPerSecond,
            ModeFigure.ErrorRate => summary.ErrorRate,
            ModeFigure.PeakThreads => summary.PeakThreads,
            ModeFigure.ContextSwitchesPerRequest => summary.ContextSwitchesPerRequest,
            ModeFigure.IntendedMean => intended?.MeanMs,
            _ => intended?.P99Ms,
        };
    }

    /// <summary>Lower is better for latency, errors, threads and context switches; higher for req/s.</summary>
    public static bool LowerIsBetter(ModeFigure figure) => figure != ModeFigure.RequestsPerSecond;

    public static string Name(ModeFigure figure) => figure switch
    {
        ModeFigure.Mean => "mean",
        ModeFigure.P50 => "p50",
        ModeFigure.P90 => "p90",
        ModeFigure.P99 => "p99",
        ModeFigure.P999 => "p99.9",
        ModeFigure.P9999 => "p99.99",
        ModeFigure.Max => "max",
        ModeFigure.RequestsPerSecond => "req/s",
        ModeFigure.ErrorRate => "error rate",
        ModeFigure.PeakThreads => "peak threads",
        ModeFigure.ContextSwitchesPerRequest => "ctx sw/req",
        ModeFigure.IntendedMean => "intended mean",
        _ => "intended p99",
    };
}

/// <summary>
/// One mode of a group: the repetitions of a repeated mode (<see cref="SeriesInfo.Repetition"/> &gt; 0), or a single
/// series. Each figure is the median of its repetitions with its spread, and its ratio to the baseline mode's.
/// </summary>
internal sealed class ModeSummary
{
    private readonly Dictionary<ModeFigure, Spread?> _spreads;
    private readonly Dictionary<ModeFigure, IReadOnlyList<double>> _values;
    private readonly Dictionary<ModeFigure, IReadOnlyList<Observation>> _observations;
    private Dictionary<ModeFigure, ModeRatio>? _ratios;

    /// <param name="label">The mode, or the series' label when it is a single series sharing its mode with others.</param>
    /// <param name="mode">The scheduling mode.</param>
    /// <param name="rows">Its series, in repetition order.</param>
    public ModeSummary(string label, string mode, IReadOnlyList<ModeRow> rows)
    {
        Label = label;
        Mode = mode;
        Rows = rows;
        _observations = ModeFigures.All.ToDictionary(f => f, f => (IReadOnlyList<Observation>)[.. rows
            .Select(r => (r.Summary.Series.Round, Value: ModeFigures.Read(r.Summary, f)))
            .Where(o => o.Value is not null)
            .Select(o => new Observation(o.Round, o.Value!.Value))]);
        _values = ModeFigures.All.ToDictionary(f => f, f => (IReadOnlyList<double>)[.. _observations[f].Select(o => o.Value)]);
        _spreads = ModeFigures.All.ToDictionary(f => f, f => Spread.Of(_values[f]));
    }

    public string Label { get; }

    public string Mode { get; }

    public IReadOnlyList<ModeRow> Rows { get; }

    /// <summary>True for the repetitions of a mode (even if only one was recorded).</summary>
    public bool IsRepeated => Rows.Any(r => r.Summary.Series.Repetition > 0);

    /// <summary>The median, bounds and A/A spread of the figure over the repetitions that measured it; null when none did.</summary>
    public Spread? Of(ModeFigure figure) => _spreads[figure];

    /// <summary>The figure of each repetition that measured it, in repetition order.</summary>
    public IReadOnlyList<double> ValuesOf(ModeFigure figure) => _values[figure];

    /// <summary>This mode's figure ÷ the baseline mode's, with its spread and verdict.</summary>
    public ModeRatio RatioOf(ModeFigure figure) =>
        _ratios?.GetValueOrDefault(figure) ?? throw new InvalidOperationException("Ratios are set when the group is built.");

    /// <summary>The figure of each repetition that measured it, with its round (what pairs it with another mode's).</summary>
    public IReadOnlyList<Observation> ObservationsOf(ModeFigure figure) => _observations[figure];

    /// <summary>Every ratio to <paramref name="baseline"/> with its 95 % interval, none judged yet (<see cref="ReportVerdicts"/> judges the family).</summary>
    internal void CompareWith(ModeSummary baseline)
    {
        _ratios = ReferenceEquals(baseline, this)
            ? ModeFigures.All.ToDictionary(f => f, f => Of(f) is null ? new ModeRatio(null, null, null, false, RatioVerdict.Unknown) : ModeRatio.Base)
            : ModeFigures.All.ToDictionary(f => f, f => ModeRatio.Of(ObservationsOf(f), baseline.ObservationsOf(f)));
    }

    /// <summary>Replaces a figure's ratio with its family's judgement.</summary>
    internal void Judge(ModeFigure figure, ModeRatio ratio) =>
        (_ratios ?? throw new InvalidOperationException("Ratios are set when the group is built."))[figure] = ratio;
}
