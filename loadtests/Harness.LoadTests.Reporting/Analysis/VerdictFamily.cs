namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>One comparison that carries a verdict: its test, and which way is better.</summary>
internal sealed record FamilyMember(RatioTest Test, bool LowerIsBetter);

/// <summary>A member's verdict and the interval it was read from (at the member's Holm level).</summary>
internal sealed record FamilyVerdict(RatioEstimate Interval, RatioVerdict Verdict);

/// <summary>
/// Every verdict a report (or a gate) gives, judged as one family, so that reading them together is as safe as
/// reading one: Holm's step-down procedure at a family-wise error of <see cref="Alpha"/>. Sorted by p, the k-th
/// comparison (from 0) of m is judged at α ÷ (m − k) while those before it were found different; the first that is
/// not stops the procedure, and it and every later one are judged at its level. Each comparison's interval is shown at
/// the level it was judged at, and its verdict is read from that interval against the ±tolerance band
/// (<see cref="VerdictOf"/>), so the interval and the word never disagree. Holm holds whatever the comparisons'
/// dependence (a mean and a p99 of one series are far from independent), and is never less powerful than Bonferroni.
/// </summary>
internal static class VerdictFamily
{
    /// <summary>The chance that any verdict of the family is a false "better" or "worse": 5 %.</summary>
    public const double Alpha = 0.05;

    /// <summary>The method's name, as the report writes it.</summary>
    public const string Method = "Holm";

    /// <summary>The verdict of every member, in their order.</summary>
    public static IReadOnlyList<FamilyVerdict> Judge(IReadOnlyList<FamilyMember> members, double tolerance, double alpha = Alpha)
    {
        ArgumentNullException.ThrowIfNull(members);
        var m = members.Count;
        var order = Enumerable.Range(0, m).OrderBy(i => members[i].Test.PBeyond(tolerance)).ToArray();
        var levels = new double[m];
        var stopped = false;
        var stopLevel = 0.0;
        for (var k = 0; k < m; k++)
        {
            var i = order[k];
            if (!stopped)
            {
                var level = alpha / (m - k);
                if (members[i].Test.PBeyond(tolerance) <= level)
                {
                    levels[i] = level;
                    continue;
                }

                (stopped, stopLevel) = (true, level);
            }

            levels[i] = stopLevel;
        }

        return [.. members.Select((member, i) =>
        {
            var interval = member.Test.Interval(1 - levels[i]);
            return new FamilyVerdict(interval, VerdictOf(interval, tolerance, member.LowerIsBetter));
        })];
    }

    /// <summary>
    /// What an interval says against the ±<paramref name="tolerance"/> band: better or worse when it lies wholly
    /// beyond the band on that side; no difference when it lies wholly inside; otherwise inconclusive, since it holds
    /// both a difference larger than the tolerance and one smaller.
    /// </summary>
    public static RatioVerdict VerdictOf(RatioEstimate interval, double tolerance, bool lowerIsBetter)
    {
        ArgumentNullException.ThrowIfNull(interval);
        if (interval.Low > 1 + tolerance)
        {
            return lowerIsBetter ? RatioVerdict.Worse : RatioVerdict.Better;
        }

        if (interval.High < 1 - tolerance)
        {
            return lowerIsBetter ? RatioVerdict.Better : RatioVerdict.Worse;
        }

        return interval.WithinTolerance(tolerance) ? RatioVerdict.NoDifference : RatioVerdict.Inconclusive;
    }

    /// <summary>
    /// The level the family's detectable effects are quoted at: the first step of Holm, α ÷ m, the level a single
    /// true difference among m comparisons must pass.
    /// </summary>
    public static double FirstStepConfidence(int members, double alpha = Alpha) => 1 - (alpha / Math.Max(1, members));
}
