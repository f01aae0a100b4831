using System.Globalization;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>
/// The data the HTML page's script draws, serialized as the page's inline JSON. Timelines are dense arrays indexed
/// by the second since the series started; a second with no sample (the target was down, the agent lost it) is null,
/// so the lines break there instead of joining across the gap.
/// </summary>
internal sealed record ReportModel(IReadOnlyList<GroupModel> Groups)
{
    /// <summary>Run-wide colours: threadpool, iocp and custompool are fixed so every report reads alike.</summary>
    private static readonly Dictionary<string, string> FixedColors = new(StringComparer.OrdinalIgnoreCase)
    {
        ["threadpool"] = "#d1495b",
        ["iocp"] = "#2f6fb3",
        ["custompool"] = "#1b998b",
    };

    private static readonly string[] Palette = ["#8f5bbf", "#e39b1b", "#5c6b7a", "#c2571a", "#3d9a3d", "#b5407f", "#2bb3c0", "#7a5c3d"];

    /// <summary>
    /// The analysed run's groups shaped for the charts, in <paramref name="colors"/> (<see cref="ColorsFor"/>); when the
    /// run is judged as a soak, each group carries its series' soak windows and trends.
    /// </summary>
    public static ReportModel Build(RunAnalysis analysis, IReadOnlyDictionary<string, string> colors)
    {
        ArgumentNullException.ThrowIfNull(analysis);
        var (run, groups, soak) = (analysis.Run, analysis.Groups, analysis.Soak is not null);
        return new ReportModel([.. groups.Select(g => BuildGroup(run, g, colors) with
        {
            Soak = soak ? SoakSeriesModel.For(g, colors) : null,
            Spectra = TailModel.Spectra(g, colors),
            Heatmap = TailModel.Heatmap(run, g, colors),
        })]);
    }

    /// <summary>
    /// One colour per label (mode, or series id where two series share a mode), the same in every group; the
    /// repetitions of a mode (<c>threadpool #2</c>) take the mode's colour. The header lists <see cref="LegendOf"/>.
    /// </summary>
    public static IReadOnlyDictionary<string, string> ColorsFor(RunData run, IReadOnlyList<ModeComparisonGroup> groups)
    {
        var labels = run.Manifest.Modes
            .Concat(groups.SelectMany(g => g.Modes.Select(m => m.Label)))
            .Concat(groups.SelectMany(g => g.Rows.Where(r => r.Summary.Series.Repetition == 0).Select(r => r.Label)))
            .Distinct(StringComparer.Ordinal);
        var colors = new Dictionary<string, string>(StringComparer.Ordinal);
        var next = 0;
        foreach (var label in labels)
        {
            colors[label] = FixedColors.TryGetValue(label, out var fixedColor) ? fixedColor : Palette[next++ % Palette.Length];
        }

        foreach (var row in groups.SelectMany(g => g.Rows).Where(r => r.Summary.Series.Repetition > 0))
        {
            colors[row.Label] = colors[row.ModeLabel];
        }

        return colors;
    }

    /// <summary>The labels of the header's colour legend: modes and single series, not each repetition.</summary>
    public static IEnumerable<string> LegendOf(IReadOnlyDictionary<string, string> colors, IReadOnlyList<ModeComparisonGroup> groups)
    {
        var repetitions = groups.SelectMany(g => g.Rows).Where(r => r.Summary.Series.Repetition > 0).Select(r => r.Label).ToHashSet(StringComparer.Ordinal);
        return colors.Keys.Where(label => !repetitions.Contains(label));
    }

    private static GroupModel BuildGroup(RunData run, ModeComparisonGroup group, IReadOnlyDictionary<string, string> colors)
    {
        var series = new List<SeriesModel>();
        foreach (var row in group.Rows)
        {
            var info = row.Summary.Series;
            var samples = SeriesSummary.TimelineOf(run, info.Id);
            series.Add(BuildSeries(row.Label, row.Summary, samples, colors[row.Label]) with
            {
                Knee = row.Summary.Knee.At is { } knee ? new KneeModel(knee.Load, knee.FromSecond, row.Summary.Knee.Reason == KneeReason.Throughput ? "throughput" : "latency") : null,
            });
        }

        var length = series.Count == 0 ? 0 : series.Max(s => s.Timeline.Users.Count);
        var events = new List<EventModel>();
        var windows = new List<WindowModel>();
        PlaceEvents(run, group, colors, length, events, windows);
        var recoveries = group.Rows
            .SelectMany(r => r.Summary.Recoveries.Where(c => c.Window.To is not null).Select(c => new RecoveryModel(
                r.Label, colors[r.Label], Round(c.Window.To) ?? 0, c.RecoveredAtSecond, Round(c.SecondsToRecover))))
            .ToList();

        var cores = group.Rows
            .SelectMany(r => SeriesSummary.TimelineOf(run, r.Summary.Series.Id))
            .SelectMany(s => s.Server.Keys)
            .Where(k => ServerMetrics.NameOf(k) == "harness_info")
            .Select(k => ServerMetrics.LabelOf(k, "processors"))
            .Select(p => int.TryParse(p, NumberStyles.Integer, CultureInfo.InvariantCulture, out var n) ? n : 0)
            .FirstOrDefault(n => n > 0);

        return new GroupModel(
            group.Key,
            group.Title,
            group.Baseline,
            series,
            events,
            windows,
            recoveries,
            WarmUpsOf(group, colors),
            length,
            cores > 0 ? cores : run.Manifest.Machine.ProcessorCount,
            cores > 0 ? "the target's processor count (harness_info)" : "the load machine's processor count");
    }

    /// <summary>One series' chart data: its per-second columns and its response time per load level.</summary>
    internal static SeriesModel BuildSeries(string label, SeriesSummary summary, IReadOnlyList<SecondSample> samples, string color)
    {
        var info = summary.Series;
        var rows = SecondRow.From(samples);
        var length = rows.Count == 0 ? 0 : rows[^1].Second + 1;
        var byIndex = new SecondRow?[length];
        foreach (var r in rows.Where(r => r.Second >= 0))
        {
            byIndex[r.Second] = r;
        }

        List<double?> Column(Func<SecondRow, double?> read) => [.. byIndex.Select(r => r is null ? null : Round(read(r)))];
        var hasIntended = rows.Any(r => r.Intended is not null);
        var timeline = new TimelineModel(
            Column(r => r.Users),
            Column(r => r.Requests),
            Column(r => r.Failures),
            Column(r => r.ErrorPercent),
            Column(r => r.Latency.Count == 0 ? null : r.Latency.MeanMs),
            Column(r => r.Latency.Count == 0 ? null : r.Latency.P99Ms),
            rows.Any(r => r.ServerTime is not null) ? Column(r => r.ServerTime?.MeanMs) : null,
            rows.Any(r => r.QueueTime is not null) ? Column(r => r.QueueTime?.MeanMs) : null,
            hasIntended ? Column(r => r.Intended is { Count: > 0 } i ? i.MeanMs : null) : null,
            hasIntended ? Column(r => r.Intended is { Count: > 0 } i ? i.P99Ms : null) : null,
            Column(r => r.Threads),
            Column(r => r.BusyThreads),
            Column(r => r.QueueLength),
            Column(r => r.CpuPercent),
            Column(r => r.ContextSwitchesPerSecond),
            Column(r => r.WorkingSetMb),
            rows.Any(r => r.ThrottledPercent is not null) ? Column(r => r.ThrottledPercent) : null)
        {
            RuntimeThreads = rows.Any(r => r.RuntimeThreads is not null) ? Column(r => r.RuntimeThreads) : null,
            RuntimeQueue = rows.Any(r => r.RuntimeQueueLength is not null) ? Column(r => r.RuntimeQueueLength) : null,
        };

        var byUsers = SeriesSummary.Measured(info, samples)
            .Where(s => s.Users > 0 && s.Latency.TotalCount > 0)
            .GroupBy(s => s.Users)
            .OrderBy(g => g.Key)
            .Select(g => (Users: g.Key, Stats: LatencyStats.From(LatencyHistogram.Merge(g.Select(s => s.Latency)))))
            .ToList();

        return new SeriesModel(
            info.Id,
            label,
            info.Mode,
            info.Model,
            color,
            summary.ServerSamples > 0,
            Round(info.IdealLatencyMs),
            Round(info.IdealThroughput),
            Round(info.WarmUpSeconds) ?? 0,
            info.IdealMethod,
            timeline,
            new ByUsersModel(
                [.. byUsers.Select(u => u.Users)],
                [.. byUsers.Select(u => Round(u.Stats.MeanMs))],
                [.. byUsers.Select(u => Round(u.Stats.P99Ms))],
                [.. byUsers.Select(u => u.Stats.Count)]));
    }

    /// <summary>
    /// The warm-ups the time charts shade: one in grey when every series of the group has the same, else one per
    /// series in its colour.
    /// </summary>
    private static List<WarmUpModel> WarmUpsOf(ModeComparisonGroup group, IReadOnlyDictionary<string, string> colors)
    {
        const string Shared = "#4a4f57";
        var warmUps = group.Rows.Select(r => (r.Label, Seconds: r.Summary.Series.WarmUpSeconds)).ToList();
        if (warmUps.All(w => w.Seconds <= 0))
        {
            return [];
        }

        return warmUps.Select(w => w.Seconds).Distinct().Count() == 1
            ? [new WarmUpModel(Round(warmUps[0].Seconds) ?? 0, Shared, null)]
            : [.. warmUps.Where(w => w.Seconds > 0).Select(w => new WarmUpModel(Round(w.Seconds) ?? 0, colors[w.Label], w.Label))];
    }

    /// <summary>
    /// Puts the run's events on the group's time axis (seconds since each series started). An event of one series
    /// is drawn in that series' colour; a run-wide one once in grey when the group's series started together, else
    /// once per series it falls within. A <c>…-down</c>/<c>…-start</c> event and the next matching
    /// <c>…-up</c>/<c>…-end</c> shade the time between them.
    /// </summary>
    private static void PlaceEvents(
        RunData run, ModeComparisonGroup group, IReadOnlyDictionary<string, string> colors, int length,
        List<EventModel> events, List<WindowModel> windows)
    {
        const string RunWideColor = "#4a4f57";
        var placed = new List<(double X, string Color, string? Label, bool RunWide, RunEvent Event)>();
        var offsets = group.Rows.Select(r => r.Summary.Series.OffsetSeconds).Distinct().ToList();
        foreach (var ev in run.Events.OrderBy(e => e.AtSeconds))
        {
            if (ev.SeriesId is not null)
            {
                var row = group.Rows.FirstOrDefault(r => r.Summary.Series.Id == ev.SeriesId);
                if (row is not null)
                {
                    placed.Add((ev.AtSeconds - row.Summary.Series.OffsetSeconds, colors[row.Label], row.Label, false, ev));
                }

                continue;
            }

            if (offsets.Count == 1)
            {
                var x = ev.AtSeconds - offsets[0];
                if (x >= 0 && x <= length)
                {
                    placed.Add((x, RunWideColor, null, true, ev));
                }

                continue;
            }

            foreach (var row in group.Rows)
            {
                var x = ev.AtSeconds - row.Summary.Series.OffsetSeconds;
                if (x >= 0 && x <= Math.Max(row.Summary.Seconds, 1))
                {
                    placed.Add((x, colors[row.Label], row.Label, true, ev));
                }
            }
        }

        var number = 0;
        foreach (var (x, color, label, runWide, ev) in placed.OrderBy(p => p.X))
        {
            events.Add(new EventModel(++number, Round(x) ?? 0, Round(ev.AtSeconds) ?? 0, ev.Kind, ev.Message, color, label, runWide));
        }

        foreach (var opening in events.Where(e => EventWindows.Opens(e.Kind)))
        {
            var closing = events.FirstOrDefault(e => e.X >= opening.X && e.Label == opening.Label && EventWindows.Closes(opening.Kind, e.Kind));
            windows.Add(new WindowModel(opening.X, closing?.X ?? length, opening.Color, opening.Label));
        }
    }

    // Three decimals keep the page small without visible loss on any chart.
    private static double? Round(double? value) => value is { } v && !double.IsNaN(v) && !double.IsInfinity(v) ? Math.Round(v, 3) : null;
}

/// <param name="Length">Seconds on the group's time axis: the longest series.</param>
/// <param name="Cores">Processor count for the CPU chart's "all cores" line.</param>
internal sealed record GroupModel(
    string Key,
    string Title,
    string Baseline,
    IReadOnlyList<SeriesModel> Series,
    IReadOnlyList<EventModel> Events,
    IReadOnlyList<WindowModel> Windows,
    IReadOnlyList<RecoveryModel> Recoveries,
    IReadOnlyList<WarmUpModel> WarmUps,
    int Length,
    int Cores,
    string CoresSource)
{
    /// <summary>The soak windows and trends of each series, when the run is judged as a soak; else null.</summary>
    public IReadOnlyList<SoakSeriesModel>? Soak { get; init; }

    /// <summary>Each series' percentile spectrum, after the warm-up.</summary>
    public IReadOnlyList<SpectrumSeriesModel> Spectra { get; init; } = [];

    /// <summary>The group's latency heatmaps, on one shared latency range.</summary>
    public HeatmapModel? Heatmap { get; init; }
}

internal sealed record SeriesModel(
    string Id,
    string Label,
    string Mode,
    string Model,
    string Color,
    bool HasServer,
    double? IdealLatencyMs,
    double? IdealThroughput,
    double WarmUpSeconds,
    string? IdealMethod,
    TimelineModel Timeline,
    ByUsersModel ByUsers)
{
    /// <summary>Where a ramp left its ideal, marked on its charts; null when it did not (or is not a ramp).</summary>
    public KneeModel? Knee { get; init; }
}

/// <param name="Load">The knee's users (or arrival rate), on the response-time-against-load chart.</param>
/// <param name="Second">The series second its level began, on the classic chart.</param>
/// <param name="Reason"><c>latency</c> or <c>throughput</c>.</param>
internal sealed record KneeModel(int Load, int Second, string Reason);

/// <summary>
/// Per-second columns; index = second since the series started. Latency in ms (successful requests; server and queue
/// time of those that reported one), error rate in %, CPU in % of one core.
/// </summary>
internal sealed record TimelineModel(
    IReadOnlyList<double?> Users,
    IReadOnlyList<double?> Requests,
    IReadOnlyList<double?> Failures,
    IReadOnlyList<double?> ErrorRate,
    IReadOnlyList<double?> Mean,
    IReadOnlyList<double?> P99,
    IReadOnlyList<double?>? ServerMean,
    IReadOnlyList<double?>? QueueMean,
    IReadOnlyList<double?>? IntendedMean,
    IReadOnlyList<double?>? IntendedP99,
    IReadOnlyList<double?> Threads,
    IReadOnlyList<double?> BusyThreads,
    IReadOnlyList<double?> Queue,
    IReadOnlyList<double?> Cpu,
    IReadOnlyList<double?> ContextSwitches,
    IReadOnlyList<double?> MemoryMb,
    IReadOnlyList<double?>? Throttled)
{
    /// <summary>The ThreadPool's threads as the target's .NET runtime reported them; null when it did not.</summary>
    public IReadOnlyList<double?>? RuntimeThreads { get; init; }

    /// <summary>The ThreadPool's queue length as the runtime reported it; null when it did not.</summary>
    public IReadOnlyList<double?>? RuntimeQueue { get; init; }
}

/// <summary>Response time per users level (or arrival rate, open model), from the merged histograms of its seconds.</summary>
internal sealed record ByUsersModel(IReadOnlyList<int> Users, IReadOnlyList<double?> Mean, IReadOnlyList<double?> P99, IReadOnlyList<long> Count);

/// <param name="X">Seconds since the series started (the charts' time axis).</param>
/// <param name="RunSeconds">Seconds since the run started.</param>
/// <param name="Label">The series whose time axis places it; null for a run-wide event common to the group's series.</param>
/// <param name="RunWide">The event concerns the whole run, not one series.</param>
internal sealed record EventModel(int Number, double X, double RunSeconds, string Kind, string Message, string Color, string? Label, bool RunWide);

/// <param name="Label">The series it concerns, or null for the whole run.</param>
internal sealed record WindowModel(double From, double To, string Color, string? Label);

/// <summary>The warm-up of a series (or of all of the group's, when <paramref name="Label"/> is null): seconds 0 to <paramref name="To"/>.</summary>
internal sealed record WarmUpModel(double To, string Color, string? Label);

/// <summary>Where a series was back after an outage or fault window (<see cref="Recovery"/>), marked on its time charts.</summary>
/// <param name="WindowEnd">When the window closed, in seconds since the series started.</param>
/// <param name="At">The second from which it was back; null when it never was.</param>
internal sealed record RecoveryModel(string Label, string Color, double WindowEnd, int? At, double? Seconds);
