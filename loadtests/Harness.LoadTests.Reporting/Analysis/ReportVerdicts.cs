namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>The family a report judged: how many comparisons carried a verdict, and by which rule.</summary>
/// <param name="Members">Comparisons judged together (each mode against its baseline and each gRPC ÷ SOAP, on <see cref="ReportVerdicts.ModeFiguresJudged"/>).</param>
/// <param name="Tolerance">The band: a difference within ±this counts as none.</param>
internal sealed record VerdictFamilySize(int Members, double Tolerance)
{
    /// <summary>The family-wise error: the chance that any "better" or "worse" of the report is false.</summary>
    public double Alpha => VerdictFamily.Alpha;

    /// <summary>The level a single difference must reach to be found first (Holm's first step).</summary>
    public double FirstStepConfidence => VerdictFamily.FirstStepConfidence(Members);
}

/// <summary>
/// The one family of verdicts of a run's report: every mode against its group's baseline, and gRPC against SOAP, on
/// mean, p99 and req/s, judged together by <see cref="VerdictFamily"/> (Holm). Every other figure keeps its ratio and
/// 95 % interval with no verdict. An A/A run therefore marks something "better" or "worse" in at most 5 % of runs,
/// however many groups and modes it has (docs/report.md, "Verdicts").
/// </summary>
internal static class ReportVerdicts
{
    /// <summary>The figures that carry a verdict between modes.</summary>
    public static IReadOnlyList<ModeFigure> ModeFiguresJudged { get; } = [ModeFigure.Mean, ModeFigure.P99, ModeFigure.RequestsPerSecond];

    /// <summary>The figures that carry a verdict between stacks.</summary>
    public static IReadOnlyList<StackFigure> StackFiguresJudged { get; } = [StackFigure.Mean, StackFigure.P99, StackFigure.RequestsPerSecond];

    /// <summary>
    /// Judges every comparison of <paramref name="groups"/> and <paramref name="stacks"/> that has a test as one family;
    /// the groups' modes take their verdicts in place, the stack pairs are returned with theirs.
    /// </summary>
    public static (IReadOnlyList<StackPair> Stacks, VerdictFamilySize Family) Judge(IReadOnlyList<ModeComparisonGroup> groups, IReadOnlyList<StackPair> stacks)
    {
        ArgumentNullException.ThrowIfNull(groups);
        ArgumentNullException.ThrowIfNull(stacks);
        var modeMembers = (
            from g in groups
            from m in g.Modes
            where m.Label != g.Baseline
            from f in ModeFiguresJudged
            let ratio = m.RatioOf(f)
            where ratio.Test is not null
            select (Mode: m, Figure: f, Test: ratio.Test!)).ToList();
        var stackMembers = (
            from p in stacks.Select((pair, index) => (pair, index))
            from f in StackFiguresJudged
            let ratio = p.pair.Ratios[f]
            where ratio.Test is not null
            select (Pair: p.index, Figure: f, Test: ratio.Test!)).ToList();

        var members = modeMembers.Select(x => new FamilyMember(x.Test, ModeFigures.LowerIsBetter(x.Figure)))
            .Concat(stackMembers.Select(x => new FamilyMember(x.Test, StackFigures.LowerIsBetter(x.Figure))))
            .ToList();
        var verdicts = VerdictFamily.Judge(members, ModeRatio.Tolerance);

        foreach (var (x, verdict) in modeMembers.Zip(verdicts))
        {
            x.Mode.Judge(x.Figure, ModeRatio.Judged(x.Test, verdict));
        }

        var judgedStacks = stacks.Select((pair, index) =>
        {
            var mine = stackMembers.Select((x, k) => (x, Verdict: verdicts[modeMembers.Count + k])).Where(y => y.x.Pair == index).ToList();
            if (mine.Count == 0)
            {
                return pair;
            }

            var ratios = pair.Ratios.ToDictionary(r => r.Key, r => r.Value);
            foreach (var (x, verdict) in mine)
            {
                ratios[x.Figure] = ratios[x.Figure].Judged(verdict);
            }

            return pair with { Ratios = ratios };
        }).ToList();
        return (judgedStacks, new VerdictFamilySize(members.Count, ModeRatio.Tolerance));
    }

    /// <summary>
    /// The detectable change per judged figure of a group: the smallest change (0.2 = 20 %) its comparisons find 4
    /// times in 5 at the family's first-step level, the median over its modes; null for a figure without a test.
    /// </summary>
    public static IReadOnlyDictionary<ModeFigure, double?> Detectable(ModeComparisonGroup group, VerdictFamilySize family)
    {
        ArgumentNullException.ThrowIfNull(group);
        ArgumentNullException.ThrowIfNull(family);
        return ModeFiguresJudged.ToDictionary(f => f, f =>
        {
            var found = group.Modes.Select(m => m.RatioOf(f).Test).OfType<RatioTest>()
                .Select(t => t.Detectable(family.Tolerance, family.FirstStepConfidence)).Order().ToList();
            return found.Count == 0 ? (double?)null : Spread.MedianOf(found);
        });
    }

    /// <summary>How often a group's comparisons of <paramref name="figure"/> find a true change of <paramref name="change"/> (the median over its modes).</summary>
    public static double? PowerAt(ModeComparisonGroup group, ModeFigure figure, double change, VerdictFamilySize family)
    {
        ArgumentNullException.ThrowIfNull(group);
        ArgumentNullException.ThrowIfNull(family);
        var powers = group.Modes.Select(m => m.RatioOf(figure).Test).OfType<RatioTest>()
            .Select(t => t.Power(change, family.Tolerance, family.FirstStepConfidence)).Order().ToList();
        return powers.Count == 0 ? null : Spread.MedianOf(powers);
    }
}
