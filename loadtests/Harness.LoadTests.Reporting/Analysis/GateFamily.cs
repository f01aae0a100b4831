namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>What the regression gate concludes.</summary>
internal enum GateOutcome
{
    /// <summary>Every judged figure's worst bound lies below the limit: no figure got worse by more than it.</summary>
    Pass,

    /// <summary>A figure's best bound lies above the limit: it got worse by more than it (Holm, family-wise 5 %).</summary>
    Fail,

    /// <summary>Neither: some figure could be worse by more than the limit, and none is shown to be.</summary>
    Inconclusive,
}

/// <summary>One gated figure's judgement: its worst and best bounds (ratios) at the levels the gate used.</summary>
/// <param name="Fails">Worse by more than the limit, found by Holm's procedure.</param>
/// <param name="Clears">Its worst bound (at 1 − α ÷ m, one-sided) is below the limit.</param>
internal sealed record GateVerdict(double BestBound, double WorstBound, bool Fails, bool Clears);

/// <summary>
/// The regression gate's rule, with three outcomes. Each gated figure is a one-sided test of "not worse than the
/// limit". It <b>fails</b> when Holm's step-down procedure over every gated figure rejects one (so an unchanged build
/// fails at most 5 % of the time, however many figures are gated); it <b>passes</b> when every figure's worst bound,
/// one-sided at 1 − α ÷ m (Bonferroni), lies below the limit (so a regression larger than the limit passes at most
/// 5 % of the time); anything else is <b>inconclusive</b>: the runs could not tell.
/// </summary>
internal static class GateFamily
{
    public static (GateOutcome Outcome, IReadOnlyList<GateVerdict> Verdicts) Judge(IReadOnlyList<FamilyMember> members, double limit, double alpha = VerdictFamily.Alpha)
    {
        ArgumentNullException.ThrowIfNull(members);
        var m = members.Count;
        if (m == 0)
        {
            return (GateOutcome.Inconclusive, []);
        }

        var p = members.Select(x => x.Test.PWorseThan(limit, x.LowerIsBetter)).ToArray();
        var fails = new bool[m];
        var levels = Enumerable.Repeat(alpha / m, m).ToArray();
        foreach (var (i, k) in Enumerable.Range(0, m).OrderBy(i => p[i]).Select((i, k) => (i, k)))
        {
            var level = alpha / (m - k);
            if (p[i] > level)
            {
                break;
            }

            (fails[i], levels[i]) = (true, level);
        }

        var verdicts = members.Select((x, i) =>
        {
            var worst = x.Test.WorstBound(1 - (alpha / m), x.LowerIsBetter);
            var best = x.Test.WorstBound(levels[i], x.LowerIsBetter);
            var clears = x.LowerIsBetter ? worst < 1 + limit : worst > 1 - limit;
            return new GateVerdict(best, worst, fails[i], clears);
        }).ToList();
        var outcome = verdicts.Any(v => v.Fails) ? GateOutcome.Fail : verdicts.All(v => v.Clears) ? GateOutcome.Pass : GateOutcome.Inconclusive;
        return (outcome, verdicts);
    }
}
