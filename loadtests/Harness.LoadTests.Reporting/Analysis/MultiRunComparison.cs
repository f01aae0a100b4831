using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>
/// One figure of a compared series in one run against run A: the ratio with the interval of a <see cref="RatioTest"/>
/// over the two runs' repetitions of this series (their noise pooled, nothing else's), judged as one family with
/// every other judged figure of the comparison (docs/compare.md, "The verdict").
/// </summary>
internal sealed record ComparedFigure(ModeFigure Figure, Spread? Baseline, Spread? Value, ModeRatio Ratio)
{
    /// <summary>(this run − A) ÷ A of the medians, in %; null when either was not measured or A is 0 and this is not.</summary>
    public double? DeltaPercent => Ratio.Median is { } r ? (r - 1) * 100 : null;

    /// <summary>The 95 % interval of <see cref="DeltaPercent"/>, in % (equal to it when there is none).</summary>
    public (double? Low, double? High) DeltaSpread => (Ratio.Low is { } l ? (l - 1) * 100 : null, Ratio.High is { } h ? (h - 1) * 100 : null);

    /// <summary>
    /// How much worse than A this run is beyond its noise, in %: the change at the interval's end nearest to no change;
    /// 0 or less when not worse. Null without an interval (a single run, noise not measured) or when not measured.
    /// </summary>
    public double? WorseBeyondNoisePercent
    {
        get
        {
            var lowerIsBetter = ModeFigures.LowerIsBetter(Figure);
            var bound = Ratio.HasSpread ? (lowerIsBetter ? Ratio.Low : Ratio.High) : null;
            return bound is { } b ? (lowerIsBetter ? b - 1 : 1 - b) * 100 : null;
        }
    }

    /// <summary>Marked worse than A: its family-adjusted interval lies wholly beyond +5 % on the worse side.</summary>
    public bool IsWorse => Ratio.Verdict == RatioVerdict.Worse;
}

/// <summary>One gated figure of one run against run A, and what the gate made of it.</summary>
/// <param name="Verdict">Null when the figure has no test (a single run on both sides, a figure of 0): not judged.</param>
internal sealed record GatedFigure(string SeriesKey, string RunId, ComparedFigure Figure, GateVerdict? Verdict);

/// <summary>The regression gate's answer over every gated figure (<see cref="GateFamily"/>).</summary>
/// <param name="Limit">The gate's limit, as a fraction (0.05 for 5 %).</param>
internal sealed record GateResult(GateOutcome Outcome, double Limit, IReadOnlyList<GatedFigure> Figures)
{
    public IEnumerable<GatedFigure> Failed => Figures.Where(f => f.Verdict is { Fails: true });

    /// <summary>The failed figures, as the console, the page and comparison.md list them.</summary>
    public IReadOnlyList<Regression> Regressions => [.. Failed.Select(f => new Regression(f.SeriesKey, f.RunId, f.Figure))];

    /// <summary>Judged, neither failing nor clearing the limit: what makes the gate inconclusive.</summary>
    public IEnumerable<GatedFigure> Undecided => Figures.Where(f => f.Verdict is { Fails: false, Clears: false });

    public IEnumerable<GatedFigure> NotJudged => Figures.Where(f => f.Verdict is null);

    /// <summary>Figures to gate, and none of them could be judged: a pass would say nothing.</summary>
    public bool JudgesNothing => Figures.Count > 0 && Figures.All(f => f.Verdict is null);
}

/// <summary>
/// A series compared across runs: a mode of one stack × operation, its repetitions together (keyed by the series id
/// without its repetition number, <see cref="ModeComparison.ModeIdOf"/>).
/// </summary>
/// <param name="ByRun">Per run (in the order given), its series of this key; empty when the run does not have it.</param>
/// <param name="Against">Per run, its figures against run A's; null for run A itself and for runs without the series.</param>
internal sealed record ComparedSeries(string Key, string Stack, string Operation, string Mode, IReadOnlyList<IReadOnlyList<SeriesSummary>> ByRun, IReadOnlyList<IReadOnlyList<ComparedFigure>?> Against)
{
    public bool InAllRuns => ByRun.All(r => r.Count > 0);
}

/// <summary>A compared series whose mean or p99 got worse than in run A by more than the gate allows, beyond its noise.</summary>
internal sealed record Regression(string SeriesKey, string RunId, ComparedFigure Figure);

/// <summary>One compared series of a run judged against run A's (<see cref="ComparedSeries.Against"/>), for the console.</summary>
/// <param name="SeriesIds">The run's series of this key (its repetitions).</param>
internal sealed record ModeJudgement(string Key, IReadOnlyList<string> SeriesIds, IReadOnlyList<ComparedFigure> Figures)
{
    /// <summary>The figure's judgement; null when it is not one of <see cref="MultiRunComparison.JudgedFigures"/>.</summary>
    public ComparedFigure? Of(ModeFigure figure) => Figures.FirstOrDefault(f => f.Figure == figure);
}

/// <summary>
/// <c>harness compare RUN_A RUN_B [RUN_C…]</c>: every run against run A (docs/report.md, "Comparison report"), from one
/// set of summaries per run, seen two ways: by mode, a mode's repetitions together with the figures' spread where runs
/// repeated it (<see cref="Series"/>: the report and the gate), and series by series (<see cref="Pairings"/>: the console).
/// </summary>
/// <param name="Pairings">Per run after A, in the order given: that run against A, series by series.</param>
internal sealed record MultiRunComparison(
    IReadOnlyList<RunData> Runs, IReadOnlyList<ComparedSeries> Series, IReadOnlyList<IReadOnlyList<string>> Differences, IReadOnlyList<SeriesPairing> Pairings)
{
    /// <summary>The figures compared, in table order.</summary>
    public static IReadOnlyList<ModeFigure> Figures { get; } =
    [
        ModeFigure.Mean, ModeFigure.P50, ModeFigure.P90, ModeFigure.P99, ModeFigure.P999, ModeFigure.Max,
        ModeFigure.RequestsPerSecond, ModeFigure.ErrorRate, ModeFigure.ContextSwitchesPerRequest,
    ];

    /// <summary>The figures judged against run A: those of the tables, and p99.99 for the console's marks.</summary>
    public static IReadOnlyList<ModeFigure> JudgedFigures { get; } = [.. Figures, ModeFigure.P9999];

    /// <summary>Per run, in the order given: its gRPC ÷ SOAP (<see cref="StackComparison"/>); empty for a run of one stack.</summary>
    public IReadOnlyList<IReadOnlyList<StackPair>> Stacks { get; init; } = [];

    /// <summary>The figures the regression gate judges.</summary>
    public static IReadOnlyList<ModeFigure> GatedFigures { get; } = [ModeFigure.Mean, ModeFigure.P99];

    /// <summary>
    /// Pairs each run's series with run A's by key (series id without repetition number), then the rest by stack +
    /// operation + mode; figures leave the warm-up out.
    /// </summary>
    /// <exception cref="ArgumentException">Fewer than two runs.</exception>
    public static MultiRunComparison Build(IReadOnlyList<RunData> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        if (runs.Count < 2)
        {
            throw new ArgumentException("A comparison needs at least two runs.", nameof(runs));
        }

        var summaries = runs.Select(SeriesSummary.ForRun).ToList();
        var units = summaries.Select(r => r.GroupBy(s => ModeComparison.ModeIdOf(s.Series), StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => (IReadOnlyList<SeriesSummary>)[.. g.OrderBy(s => s.Series.Repetition)], StringComparer.Ordinal)).ToList();
        var keys = units.SelectMany(u => u.Keys).Distinct(StringComparer.Ordinal).ToList();
        var paired = new List<ComparedSeries>();
        var taken = units.Select(_ => new HashSet<string>(StringComparer.Ordinal)).ToList();
        foreach (var key in keys)
        {
            // A key every run of which already paired it (by shape, under another key) is done.
            if (!units.Where((u, i) => u.ContainsKey(key) && !taken[i].Contains(key)).Any())
            {
                continue;
            }

            var byRun = new List<IReadOnlyList<SeriesSummary>>();
            SeriesInfo? shape = null;
            for (var i = 0; i < runs.Count; i++)
            {
                var match = units[i].GetValueOrDefault(key) is { } exact && taken[i].Add(key) ? (key, exact)
                    : shape is null ? default
                    : units[i].Where(u => !taken[i].Contains(u.Key) && SameShape(u.Value[0].Series, shape)).Select(u => (u.Key, u.Value)).FirstOrDefault();
                if (match.Item2 is not null)
                {
                    taken[i].Add(match.Item1);
                }

                byRun.Add(match.Item2 ?? []);
                shape ??= match.Item2?[0].Series;
            }

            var info = shape!;
            paired.Add(new ComparedSeries(key, info.Stack, info.Operation, info.Mode, byRun, []));
        }

        var series = JudgeFamily([.. paired.Select(s => s with { Against = [.. s.ByRun.Select((r, i) => i == 0 || r.Count == 0 || s.ByRun[0].Count == 0 ? null : Against(s, i))] })]);

        var differences = runs.Select((r, i) => i == 0 ? (IReadOnlyList<string>)[] : RunDifferences.Between(runs[0].Manifest, r.Manifest, Pairs(series, i))).ToList();
        var pairings = runs.Skip(1).Select((r, i) => SeriesPairing.Of(runs[0], summaries[0], r, summaries[i + 1]) with
        {
            ByMode = [.. series.Where(s => s.Against[i + 1] is not null).Select(s => new ModeJudgement(s.Key, [.. s.ByRun[i + 1].Select(x => x.Series.Id)], s.Against[i + 1]!))],
        }).ToList();
        return new MultiRunComparison(runs, series, differences, pairings)
        {
            Stacks = [.. runs.Select((r, i) => StackComparison.Build(r.Manifest, summaries[i]))],
        };
    }

    /// <summary>
    /// Why the runs cannot be judged against each other, in one line, or null: they differ in profile (name or
    /// definition), time scale, or a compared series' operation parameters, or share no series.
    /// </summary>
    public string? Refusal()
    {
        var a = Runs[0].Manifest;
        for (var i = 1; i < Runs.Count; i++)
        {
            var differences = RunDifferences.Between(a, Runs[i].Manifest, Pairs(Series, i))
                .Where(d => d.StartsWith("profile", StringComparison.Ordinal) || d.StartsWith("time scale", StringComparison.Ordinal) || d.Contains(": operation parameters:", StringComparison.Ordinal))
                .ToList();
            if (differences.Count > 0)
            {
                return $"run {Runs[i].Manifest.RunId} differs from run {a.RunId}: {string.Join(" ", differences)}";
            }

            if (!Series.Any(s => s.ByRun[0].Count > 0 && s.ByRun[i].Count > 0))
            {
                return $"run {Runs[i].Manifest.RunId} has no series in common with run {a.RunId}.";
            }
        }

        return null;
    }

    /// <summary>
    /// The regression gate at <paramref name="percent"/>: every gated figure of every run against run A, judged as one
    /// family (<see cref="GateFamily"/>): fail when Holm finds one worse by more than the limit, pass when every one's
    /// worst bound is below it, else inconclusive. A figure without a test is not judged, and leaves the gate
    /// inconclusive unless another figure fails.
    /// </summary>
    public GateResult Gate(double percent)
    {
        var limit = percent / 100;
        var gated = Gated().ToList();
        var judged = gated.Where(g => g.Figure.Ratio.Test is not null).ToList();
        var (outcome, verdicts) = GateFamily.Judge([.. judged.Select(g => new FamilyMember(g.Figure.Ratio.Test!, ModeFigures.LowerIsBetter(g.Figure.Figure)))], limit);
        var byFigure = judged.Zip(verdicts).ToDictionary(x => x.First, x => x.Second);
        var figures = gated.Select(g => new GatedFigure(g.Key, g.RunId, g.Figure, byFigure.GetValueOrDefault(g))).ToList();
        if (outcome == GateOutcome.Pass && figures.Any(f => f.Verdict is null))
        {
            outcome = GateOutcome.Inconclusive;
        }

        return new GateResult(outcome, limit, figures);
    }

    private IEnumerable<(string Key, string RunId, ComparedFigure Figure)> Gated() =>
        from unit in Series
        from i in Enumerable.Range(1, Runs.Count - 1)
        from f in unit.Against[i] ?? []
        where GatedFigures.Contains(f.Figure)
        select (unit.Key, Runs[i].Manifest.RunId, f);

    /// <summary>
    /// Run <paramref name="run"/>'s figures of <paramref name="unit"/> against run A's, each with the interval of the
    /// two runs' repetitions of this series alone (rounds of different runs do not pair), not yet judged.
    /// </summary>
    private static List<ComparedFigure> Against(ComparedSeries unit, int run) =>
    [
        .. JudgedFigures.Select(f =>
        {
            var a = ValuesOf(unit.ByRun[0], f);
            var b = ValuesOf(unit.ByRun[run], f);
            return new ComparedFigure(f, Spread.Of(a), Spread.Of(b), ModeRatio.Of(Unpaired(b), Unpaired(a)));
        }),
    ];

    /// <summary>
    /// Judges the comparison's verdicts as one family: every run's mean, p99 and req/s of every series against run A
    /// (<see cref="VerdictFamily"/>); the other figures keep their 95 % interval and no verdict.
    /// </summary>
    private static List<ComparedSeries> JudgeFamily(List<ComparedSeries> series)
    {
        var members = (
            from s in series.Select((unit, index) => (unit, index))
            from r in s.unit.Against.Select((figures, run) => (figures, run))
            where r.figures is not null
            from f in r.figures!.Select((figure, k) => (figure, k))
            where ReportVerdicts.ModeFiguresJudged.Contains(f.figure.Figure) && f.figure.Ratio.Test is not null
            select (Series: s.index, Run: r.run, Index: f.k, f.figure)).ToList();
        var verdicts = VerdictFamily.Judge([.. members.Select(m => new FamilyMember(m.figure.Ratio.Test!, ModeFigures.LowerIsBetter(m.figure.Figure)))], ModeRatio.Tolerance);
        var judged = members.Zip(verdicts).ToDictionary(x => (x.First.Series, x.First.Run, x.First.Index), x => x.First.figure with { Ratio = ModeRatio.Judged(x.First.figure.Ratio.Test!, x.Second) });
        return [.. series.Select((unit, i) => unit with
        {
            Against = [.. unit.Against.Select((figures, run) => figures is null ? null : (IReadOnlyList<ComparedFigure>)[.. figures.Select((f, k) => judged.GetValueOrDefault((i, run, k), f))])],
        })];
    }

    private static List<Observation> Unpaired(IReadOnlyList<double> values) => [.. values.Select(v => new Observation(0, v))];

    private static IReadOnlyList<double> ValuesOf(IReadOnlyList<SeriesSummary> series, ModeFigure figure) =>
        [.. series.Select(s => ModeFigures.Read(s, figure)).OfType<double>()];

    private static IEnumerable<(SeriesInfo A, SeriesInfo B)> Pairs(IReadOnlyList<ComparedSeries> series, int run) =>
        series.Where(s => s.ByRun[0].Count > 0 && s.ByRun[run].Count > 0).Select(s => (s.ByRun[0][0].Series, s.ByRun[run][0].Series));

    internal static bool SameShape(SeriesInfo x, SeriesInfo y) =>
        string.Equals(x.Stack, y.Stack, StringComparison.OrdinalIgnoreCase)
        && string.Equals(x.Operation, y.Operation, StringComparison.OrdinalIgnoreCase)
        && string.Equals(x.Mode, y.Mode, StringComparison.OrdinalIgnoreCase);
}
