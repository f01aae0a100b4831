using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>The modes of one (stack, operation) pair in one run, each against the baseline mode.</summary>
/// <param name="Baseline">Label of the baseline mode: <c>threadpool</c> when present, else the first mode run.</param>
/// <param name="Rows">Every series of the group, one row each (a repeated mode has one row per repetition).</param>
/// <param name="Modes">The group's modes: a repeated mode's repetitions together, any other series alone.</param>
internal sealed record ModeComparisonGroup(string Stack, string Operation, string Baseline, IReadOnlyList<ModeRow> Rows, IReadOnlyList<ModeSummary> Modes)
{
    public string Title => $"{Stack} · {Operation}";

    /// <summary>An id safe in file names and HTML anchors.</summary>
    public string Key => $"{Stack}-{Operation}";

    public ModeSummary BaselineMode => Modes.First(m => m.Label == Baseline);

    /// <summary>The baseline mode's first series.</summary>
    public ModeRow BaselineRow => BaselineMode.Rows[0];

    /// <summary>True when a mode of the group was repeated.</summary>
    public bool HasRepetitions => Modes.Any(m => m.IsRepeated);
}

/// <summary>
/// One series of a group: its label on charts and per-series tables (the mode; <c>mode #n</c> for repetition n; the
/// series id when two series share a mode without repetition numbers), and its ratios to the baseline mode.
/// </summary>
/// <param name="ModeLabel">The label of its <see cref="ModeSummary"/>: the mode, for every repetition of it.</param>
internal sealed record ModeRow(string Label, SeriesSummary Summary, ModeRatios Ratios, string ModeLabel);

/// <summary>
/// This series' figure ÷ the baseline mode's (its median when the baseline mode was repeated; the baseline's own
/// ratios are 1). Null where either figure is missing, or the baseline is 0 and this series is not.
/// </summary>
internal sealed record ModeRatios(
    double? Mean,
    double? P50,
    double? P90,
    double? P99,
    double? Max,
    double? RequestsPerSecond,
    double? ErrorRate,
    double? PeakThreads,
    double? ContextSwitchesPerRequest,
    double? IntendedMean,
    double? IntendedP99)
{
    public static ModeRatios Between(SeriesSummary row, SeriesSummary baseline)
    {
        ArgumentNullException.ThrowIfNull(row);
        ArgumentNullException.ThrowIfNull(baseline);
        return Against(row, figure => ModeFigures.Read(baseline, figure));
    }

    /// <param name="row">The series.</param>
    /// <param name="baseline">The baseline mode's figure (its median over repetitions), or null when not measured.</param>
    public static ModeRatios Against(SeriesSummary row, Func<ModeFigure, double?> baseline)
    {
        ArgumentNullException.ThrowIfNull(row);
        ArgumentNullException.ThrowIfNull(baseline);
        double? Of(ModeFigure figure) => Ratio.Of(ModeFigures.Read(row, figure), baseline(figure));
        return new ModeRatios(
            Of(ModeFigure.Mean), Of(ModeFigure.P50), Of(ModeFigure.P90), Of(ModeFigure.P99), Of(ModeFigure.Max),
            Of(ModeFigure.RequestsPerSecond), Of(ModeFigure.ErrorRate), Of(ModeFigure.PeakThreads), Of(ModeFigure.ContextSwitchesPerRequest),
            Of(ModeFigure.IntendedMean), Of(ModeFigure.IntendedP99));
    }
}

/// <summary>Groups a run's series by (stack, operation) and compares the modes in each.</summary>
internal static class ModeComparison
{
    public const string PreferredBaseline = "threadpool";

    /// <summary>Groups in the order their first series appears in the manifest; rows in the run's mode order, repetitions in order.</summary>
    public static IReadOnlyList<ModeComparisonGroup> Build(RunData run)
    {
        ArgumentNullException.ThrowIfNull(run);
        return Build(run.Manifest, SeriesSummary.ForRun(run));
    }

    /// <summary>The groups, their modes judged as one family (<see cref="ReportVerdicts"/>) of the modes alone.</summary>
    public static IReadOnlyList<ModeComparisonGroup> Build(RunManifest manifest, IReadOnlyList<SeriesSummary> summaries)
    {
        var groups = Unjudged(manifest, summaries);
        ReportVerdicts.Judge(groups, []);
        return groups;
    }

    /// <summary>
    /// The groups with every ratio's 95 % interval and no verdict yet, for a caller that judges them in a larger family
    /// (a run's report: with its gRPC ÷ SOAP pairs, <see cref="RunAnalysis"/>).
    /// </summary>
    internal static IReadOnlyList<ModeComparisonGroup> Unjudged(RunManifest manifest, IReadOnlyList<SeriesSummary> summaries)
    {
        ArgumentNullException.ThrowIfNull(manifest);
        ArgumentNullException.ThrowIfNull(summaries);
        var groups = new List<ModeComparisonGroup>();
        foreach (var group in summaries.GroupBy(s => (s.Series.Stack, s.Series.Operation)))
        {
            var ordered = group
                .Select((summary, index) => (summary, index))
                .OrderBy(p => ModeOrder(manifest.Modes, p.summary.Series.Mode))
                .ThenBy(p => p.summary.Series.Repetition)
                .ThenBy(p => p.index)
                .Select(p => p.summary)
                .ToList();

            // A mode that also has repetitions, or two unnumbered series, labels its unnumbered series by id.
            var byId = ordered.GroupBy(s => s.Series.Mode, StringComparer.Ordinal)
                .Where(g => g.Count(s => s.Series.Repetition == 0) > 1 || (g.Any(s => s.Series.Repetition > 0) && g.Any(s => s.Series.Repetition == 0)))
                .Select(g => g.Key)
                .ToHashSet(StringComparer.Ordinal);
            string LabelOf(SeriesSummary s) =>
                s.Series.Slot > 0 ? (s.Series.Round > 0 ? $"{ListingLabel(s.Series.Mode, s.Series.Slot)} #{s.Series.Round}" : ListingLabel(s.Series.Mode, s.Series.Slot))
                : s.Series.Repetition > 0 ? RepetitionLabel(s.Series) : byId.Contains(s.Series.Mode) ? s.Series.Id : s.Series.Mode;
            // A mode listed twice in --modes (an A/A run) is one arm per listing, so its listings are compared.
            string ModeLabelOf(SeriesSummary s) =>
                s.Series.Slot > 0 ? ListingLabel(s.Series.Mode, s.Series.Slot) : s.Series.Repetition > 0 ? s.Series.Mode : LabelOf(s);

            var entries = ordered.GroupBy(ModeLabelOf, StringComparer.Ordinal).ToList();
            var baseline = entries.FirstOrDefault(e => string.Equals(e.First().Series.Mode, PreferredBaseline, StringComparison.OrdinalIgnoreCase))
                ?? entries[0];
            var baselineMedians = ModeFigures.All.ToDictionary(
                f => f, f => Spread.Of(baseline.Select(s => ModeFigures.Read(s, f)).OfType<double>())?.Median);

            var rows = ordered.Select(s => new ModeRow(LabelOf(s), s, ModeRatios.Against(s, f => baselineMedians[f]), ModeLabelOf(s))).ToList();
            var modes = entries
                .Select(e => new ModeSummary(e.Key, e.First().Series.Mode, [.. rows.Where(r => r.ModeLabel == e.Key)]))
                .ToList();
            var baselineMode = modes.First(m => m.Label == baseline.Key);
            foreach (var mode in modes)
            {
                mode.CompareWith(baselineMode);
            }

            groups.Add(new ModeComparisonGroup(group.Key.Stack, group.Key.Operation, baseline.Key, rows, modes));
        }

        return groups;
    }

    /// <summary>The arm of one listing of a mode that <c>--modes</c> names more than once: <c>threadpool (2nd)</c>.</summary>
    public static string ListingLabel(string mode, int slot) => $"{mode} ({Ordinal(slot)})";

    internal static string Ordinal(int n) => n.ToString(System.Globalization.CultureInfo.InvariantCulture) + (n % 100 is 11 or 12 or 13 ? "th" : (n % 10) switch
    {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    });

    /// <summary>How a repetition is labelled in tables and charts: <c>threadpool #2</c>.</summary>
    public static string RepetitionLabel(SeriesInfo series)
    {
        ArgumentNullException.ThrowIfNull(series);
        return series.Repetition > 0 ? $"{series.Mode} #{series.Repetition}" : series.Mode;
    }

    /// <summary>The id of a repeated series without its repetition number (<c>grpc-compute-iocp-2</c> → <c>grpc-compute-iocp</c>); else the id.</summary>
    public static string ModeIdOf(SeriesInfo series)
    {
        ArgumentNullException.ThrowIfNull(series);
        var suffix = "-" + series.Repetition.ToString(System.Globalization.CultureInfo.InvariantCulture);
        return series.Repetition > 0 && series.Id.EndsWith(suffix, StringComparison.Ordinal) ? series.Id[..^suffix.Length] : series.Id;
    }

    /// <summary>The place of <paramref name="mode"/> in the run's modes, case-insensitively; after them all when it is not one.</summary>
    internal static int ModeOrder(IReadOnlyList<string> modes, string mode)
    {
        for (var i = 0; i < modes.Count; i++)
        {
            if (string.Equals(modes[i], mode, StringComparison.OrdinalIgnoreCase))
            {
                return i;
            }
        }

        return modes.Count;
    }
}

/// <summary>Ratios and percentage changes with the zero cases made explicit.</summary>
internal static class Ratio
{
    /// <summary><paramref name="value"/> ÷ <paramref name="baseline"/>; 1 when both are 0; null when only the baseline is 0 or either is missing.</summary>
    public static double? Of(double? value, double? baseline)
    {
        if (value is not { } v || baseline is not { } b)
        {
            return null;
        }

        if (b == 0)
        {
            return v == 0 ? 1 : null;
        }

        return v / b;
    }

    /// <summary>(after − before) ÷ before × 100; 0 when both are 0; null when only <paramref name="before"/> is 0 or either is missing.</summary>
    public static double? PercentChange(double? before, double? after)
    {
        var ratio = Of(after, before);
        return ratio is null ? null : (ratio.Value - 1) * 100;
    }
}
