using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>One comparison of a run repeated until settled, after its last look.</summary>
/// <param name="Title">The group: <c>soap · compute</c>.</param>
/// <param name="Label">What is compared: <c>iocp ÷ threadpool</c>, or <c>threadpool (2nd) ÷ threadpool (1st)</c> in an A/A run.</param>
/// <param name="Result">Where the looks left it; null when it could not be judged (a figure of 0, a side never measured).</param>
/// <param name="Unjudgeable">No look could make an interval (a figure of 0, or identical in every repetition): more rounds would not settle it, so it does not hold the run.</param>
internal sealed record SettledComparison(string Title, string Label, ModeFigure Figure, SettledRatio? Result, bool Unjudgeable = false)
{
    public bool IsSettled => Result is { IsSettled: true };
}

/// <summary>
/// The verdicts of a run repeated until settled (<c>--repeat auto[:MAX]</c>): its looks replayed from the raw files, so
/// the runner's decision to stop and the report's account of it are one computation (<see cref="SequentialRule"/>).
/// A comparison is a mode against its group's baseline, or, when <c>--modes</c> lists one mode twice, its second
/// listing against its first; each on <see cref="Figures"/>.
/// </summary>
/// <param name="Rounds">Rounds completed and looked at; the run stopped after them.</param>
internal sealed record RepetitionSettlement(SequentialRule Rule, int Rounds, IReadOnlyList<SettledComparison> Comparisons)
{
    /// <summary>The figures a run is repeated until settled on.</summary>
    public static IReadOnlyList<ModeFigure> Figures { get; } = [ModeFigure.Mean, ModeFigure.P99, ModeFigure.RequestsPerSecond];

    public bool AllSettled => Comparisons.All(c => c.IsSettled || c.Unjudgeable);

    public IEnumerable<SettledComparison> Unsettled => Comparisons.Where(c => !c.IsSettled && !c.Unjudgeable);

    /// <summary>The settlement of a run made with <c>--repeat auto</c>; null for any other run.</summary>
    public static RepetitionSettlement? Of(RunManifest manifest, IReadOnlyList<SeriesSummary> summaries)
    {
        ArgumentNullException.ThrowIfNull(manifest);
        return manifest.RepeatUntilSettled > 0 ? Replay(SequentialRule.Create(manifest.RepeatUntilSettled), manifest.Modes, summaries) : null;
    }

    /// <summary>Every look the rule makes at the completed rounds of <paramref name="summaries"/>, in order.</summary>
    /// <param name="modes">The run's modes in run order; the baseline is threadpool where present, else the first.</param>
    public static RepetitionSettlement Replay(SequentialRule rule, IReadOnlyList<string> modes, IReadOnlyList<SeriesSummary> summaries)
    {
        ArgumentNullException.ThrowIfNull(rule);
        ArgumentNullException.ThrowIfNull(summaries);
        var comparisons = new List<SettledComparison>();
        var rounds = 0;
        var groups = summaries.Where(s => s.Series.Round > 0).GroupBy(s => (s.Series.Stack, s.Series.Operation))
            .Select(group =>
            {
                var arms = group.GroupBy(s => (s.Series.Mode, s.Series.Slot)).ToDictionary(g => g.Key, g => g.ToList());
                return (group.Key, Arms: arms, Complete: CompleteRounds(arms.Values), Pairs: Pairs(arms, modes).ToList());
            }).ToList();
        // Every comparison of the run is one family: each look's level is shared among them all.
        var family = groups.Sum(g => g.Pairs.Count) * Figures.Count;
        foreach (var (key, arms, complete, pairs) in groups)
        {
            rounds = Math.Max(rounds, Math.Min(complete, rule.MaxRounds));
            foreach (var (label, value, baseline) in pairs)
            {
                foreach (var figure in Figures)
                {
                    SettledRatio? carried = null;
                    for (var look = 2; look <= complete && rule.IsLook(look); look += 2)
                    {
                        IReadOnlyList<Observation> Values(List<SeriesSummary> arm) => [.. arm
                            .Where(s => s.Series.Round <= look)
                            .Select(s => (s.Series.Round, Value: ModeFigures.Read(s, figure)))
                            .Where(o => o.Value is not null)
                            .Select(o => new Observation(o.Round, o.Value!.Value))];
                        carried = rule.Look(carried, RatioTest.Of(Values(value), Values(baseline)).Test, look, family);
                    }

                    comparisons.Add(new SettledComparison($"{key.Stack} · {key.Operation}", label, figure, carried, Unjudgeable: carried is null && complete >= 2));
                }
            }
        }

        return new RepetitionSettlement(rule, rounds, comparisons);
    }

    // Rounds every arm of the group finished: a round cut short by an interruption is not looked at.
    private static int CompleteRounds(IEnumerable<List<SeriesSummary>> arms) => arms.Min(arm =>
    {
        var rounds = arm.Select(s => s.Series.Round).ToHashSet();
        var complete = 0;
        while (rounds.Contains(complete + 1))
        {
            complete++;
        }

        return complete;
    });

    private static IEnumerable<(string Label, List<SeriesSummary> Value, List<SeriesSummary> Baseline)> Pairs(
        Dictionary<(string Mode, int Slot), List<SeriesSummary>> arms, IReadOnlyList<string> modes)
    {
        var twice = arms.Keys.Where(k => k.Slot == 2).Select(k => k.Mode).ToHashSet(StringComparer.Ordinal);
        foreach (var mode in twice)
        {
            if (arms.TryGetValue((mode, 1), out var first))
            {
                foreach (var slot in arms.Keys.Where(k => k.Mode == mode && k.Slot >= 2).Select(k => k.Slot).Order())
                {
                    yield return ($"{ModeComparison.ListingLabel(mode, slot)} ÷ {ModeComparison.ListingLabel(mode, 1)}", arms[(mode, slot)], first);
                }
            }
        }

        var single = arms.Keys.Where(k => !twice.Contains(k.Mode))
            .OrderBy(k => ModeComparison.ModeOrder(modes, k.Mode)).ToList();
        if (single.Count < 2)
        {
            yield break;
        }

        var baseline = single.FirstOrDefault(k => string.Equals(k.Mode, ModeComparison.PreferredBaseline, StringComparison.OrdinalIgnoreCase), single[0]);
        foreach (var arm in single.Where(k => k != baseline))
        {
            yield return ($"{arm.Mode} ÷ {baseline.Mode}", arms[arm], arms[baseline]);
        }
    }
}
