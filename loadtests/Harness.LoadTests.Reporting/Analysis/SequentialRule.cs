namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>Where one comparison stands after a look at the repetitions so far.</summary>
internal enum Settlement
{
    /// <summary>The interval holds 1 and reaches past ±5 %: more repetitions could still tell.</summary>
    Unsettled,

    /// <summary>The interval excludes 1: the modes differ.</summary>
    Differs,

    /// <summary>The interval lies within ±5 % of 1: no difference larger than 5 %.</summary>
    NoLargerThanTolerance,
}

/// <summary>
/// When to stop adding balanced repetitions (<c>--repeat auto[:MAX]</c>). The run looks after every second round
/// (one forward and one backward pass over the modes, so each look sees a balanced order) up to
/// <see cref="MaxRounds"/>: at most <see cref="Looks"/> looks. Looking repeatedly and stopping at the first
/// "difference" would make false differences more likely than the stated confidence, so each look uses the
/// Bonferroni level 1 − α ÷ looks: then all the looks' intervals hold the true ratio together with probability at
/// least 1 − α, and so does their intersection, which is what a comparison carries from look to look. A settled
/// comparison therefore stays settled, and its verdict keeps the stated error rate. docs/report.md, "Repetitions
/// until settled", has the reasoning; the simulated A/A test checks the rate.
/// </summary>
/// <param name="MaxRounds">Rounds at most, even, from 2.</param>
/// <param name="Confidence">The overall confidence of each comparison's verdict (0.95).</param>
internal sealed record SequentialRule(int MaxRounds, double Confidence = SequentialRule.DefaultConfidence)
{
    public const int DefaultMaxRounds = 8;
    public const double DefaultConfidence = 0.95;

    /// <summary>A difference smaller than this (±5 %) counts as none.</summary>
    public const double Tolerance = ModeRatio.Tolerance;

    /// <summary>Looks at rounds 2, 4, … <see cref="MaxRounds"/>.</summary>
    public int Looks => MaxRounds / 2;

    /// <summary>The confidence of each look's interval.</summary>
    public double LookConfidence => 1 - ((1 - Confidence) / Looks);

    /// <summary>Whether the run looks after <paramref name="rounds"/> completed rounds.</summary>
    public bool IsLook(int rounds) => rounds >= 2 && rounds % 2 == 0 && rounds <= MaxRounds;

    public static SequentialRule Create(int maxRounds, double confidence = DefaultConfidence)
    {
        if (maxRounds < 2 || maxRounds % 2 != 0)
        {
            throw new ArgumentOutOfRangeException(nameof(maxRounds), maxRounds, "the most rounds must be even and at least 2, so every look sees a balanced order");
        }

        return new SequentialRule(maxRounds, confidence);
    }

    /// <summary>
    /// The confidence of each look's interval when <paramref name="comparisons"/> comparisons are settled together:
    /// Bonferroni over every look of every comparison, so that all of them hold together at <see cref="Confidence"/>
    /// and a run's settled verdicts, read as a family, are wrong at most 5 % of the time.
    /// </summary>
    public double LookConfidenceFor(int comparisons) => 1 - ((1 - Confidence) / (Looks * Math.Max(1, comparisons)));

    /// <summary>
    /// One look at one comparison: the interval of <paramref name="test"/> at the look's level (of
    /// <paramref name="comparisons"/> settled together), intersected with what <paramref name="previous"/> looks left.
    /// Null when there is no test yet (a mode run once, a figure of 0, identical repetitions).
    /// </summary>
    public SettledRatio? Look(SettledRatio? previous, RatioTest? test, int rounds, int comparisons = 1)
    {
        if (test?.Interval(LookConfidenceFor(comparisons)) is not { } now)
        {
            return previous;
        }

        // What is carried holds at the overall confidence: every look so far at 1 − α ÷ (looks × comparisons), so together at ≥ 1 − α.
        var combined = previous is null ? now with { Confidence = Confidence } : previous.Estimate.Intersect(now, Confidence);
        // A settled comparison keeps the round it settled at: later looks only narrow its interval.
        return new SettledRatio(combined, SettlementOf(combined), previous is { IsSettled: true } ? previous.Rounds : rounds);
    }

    private static Settlement SettlementOf(RatioEstimate estimate) =>
        estimate.ExcludesOne ? Settlement.Differs
        : estimate.WithinTolerance(Tolerance) ? Settlement.NoLargerThanTolerance
        : Settlement.Unsettled;
}

/// <summary>A comparison after a look: its ratio, the interval carried so far, and where that leaves it.</summary>
/// <param name="Rounds">Rounds completed at the look that settled it, or at the last look while it is unsettled.</param>
internal sealed record SettledRatio(RatioEstimate Estimate, Settlement Settlement, int Rounds)
{
    public bool IsSettled => Settlement != Settlement.Unsettled;
}
