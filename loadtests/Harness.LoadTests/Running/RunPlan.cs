namespace Harness.LoadTests.Running;

/// <summary>One series of a run: a stack and an operation against one mode's targets.</summary>
/// <param name="Index">Its place in the run, from 0, for the progress line.</param>
/// <param name="Repetition">Which run of its mode this is, from 1, when the mode runs more than once; else 0.</param>
/// <param name="Round">Its round (one pass over the modes), from 1, when the modes run more than once; else 0.</param>
/// <param name="Slot">Which listing of its mode, from 1, when <c>--modes</c> names the mode more than once; else 0.</param>
internal sealed record PlannedSeries(int Index, string Stack, string Operation, string Mode, int Repetition, int Round = 0, int Slot = 0)
{
    /// <summary>The series id of the raw files: <c>{stack}-{operation}-{mode}</c>, and <c>-{repetition}</c> when the mode runs more than once.</summary>
    public string Id => Repetition == 0 ? $"{Stack}-{Operation}-{Mode}" : $"{Stack}-{Operation}-{Mode}-{Repetition}";
}

/// <summary>
/// The series that run while one mode's services are up: they start before the first and stop after the last, so
/// each repetition of a mode, and within it each operation, meets services of its own.
/// </summary>
/// <param name="Repetition">From 1 when the mode runs more than once; else 0.</param>
/// <param name="Round">From 1 when the modes run more than once; else 0 (<see cref="PlannedSeries.Round"/>).</param>
internal sealed record ModeRun(string Mode, int Repetition, IReadOnlyList<PlannedSeries> Series, int Round = 0)
{
    public string Label => Repetition == 0 ? Mode : $"{Mode}-{Repetition}";
}

/// <summary>
/// The order of a run: the modes (<see cref="RepetitionOrder"/>), and under each every operation and, within it, every
/// stack, in the order given on forward rounds and reversed on backward ones (S G | G S), so that neither stack, nor
/// operation, always goes first after its services start. Each operation of a mode's place gets services started
/// afresh (one <see cref="ModeRun"/> each): an operation never runs in a process that another operation has just
/// loaded (a Compute series after 100 blocking third-party calls would meet their threads), so the order of the
/// operations within a round is not part of what a mode is measured with (docs/report.md, "Verdicts").
/// </summary>
internal static class RunPlan
{
    /// <param name="modes">The modes as listed, duplicates kept: a mode listed twice runs twice.</param>
    /// <param name="repeat">How many times the whole list runs, 1 or more.</param>
    public static IReadOnlyList<ModeRun> Create(IReadOnlyList<string> modes, int repeat, IReadOnlyList<string> stacks, IReadOnlyList<string> operations)
    {
        var runs = new List<ModeRun>();
        var index = 0;
        foreach (var (place, at) in RepetitionOrder.Places(modes, repeat).Index())
        {
            var backward = place / modes.Count % 2 == 1;
            foreach (var operation in backward ? Enumerable.Reverse(operations) : operations)
            {
                var series = new List<PlannedSeries>();
                foreach (var stack in backward ? Enumerable.Reverse(stacks) : stacks)
                {
                    series.Add(new PlannedSeries(index++, stack, operation, at.Mode, at.Repetition, at.Round, at.Slot));
                }

                runs.Add(new ModeRun(at.Mode, at.Repetition, series, at.Round));
            }
        }

        return runs;
    }
}

/// <summary>In which order the modes of a repeated run go, so that no mode is favoured by its place in the run.</summary>
internal static class RepetitionOrder
{
    /// <summary>
    /// The list <paramref name="repeat"/> times, forwards and backwards in turn: A B B A A B…, A B C C B A A B C…
    /// Over an even number of rounds every mode sits as often at an even place as at an odd one, and its mean place
    /// is the same as every other mode's, so a drift over the run (a warming machine, a filling disk) does not favour
    /// one. Each mode's runs are numbered from 1 in run order; a mode that runs only once gets 0.
    /// </summary>
    /// <param name="modes">The modes as listed; a mode listed twice is two entries of each round.</param>
    /// <param name="repeat">Rounds, 1 or more.</param>
    public static IReadOnlyList<(string Mode, int Repetition)> Of(IReadOnlyList<string> modes, int repeat) =>
        [.. Places(modes, repeat).Select(p => (p.Mode, p.Repetition))];

    /// <summary>
    /// <see cref="Of"/> with each place's round (from 1 when there is more than one, else 0) and slot: which listing of
    /// its mode it is (from 1 when the mode is listed more than once, else 0), so two listings of one mode, an A/A
    /// run, can be compared with each other.
    /// </summary>
    public static IReadOnlyList<ModePlace> Places(IReadOnlyList<string> modes, int repeat)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(repeat, 1);
        var listings = modes.Select((mode, i) => (Mode: mode, Slot: modes.Take(i + 1).Count(m => m == mode))).ToList();
        var listedTwice = modes.GroupBy(m => m).Where(g => g.Count() > 1).Select(g => g.Key).ToHashSet();
        var order = new List<(string Mode, int Slot, int Round)>();
        for (var round = 0; round < repeat; round++)
        {
            order.AddRange((round % 2 == 0 ? listings : Enumerable.Reverse(listings)).Select(l => (l.Mode, l.Slot, round + 1)));
        }

        var runs = order.GroupBy(p => p.Mode).ToDictionary(g => g.Key, g => g.Count());
        var seen = new Dictionary<string, int>();
        return [.. order.Select(p => new ModePlace(
            p.Mode,
            runs[p.Mode] == 1 ? 0 : seen[p.Mode] = seen.GetValueOrDefault(p.Mode) + 1,
            repeat == 1 ? 0 : p.Round,
            listedTwice.Contains(p.Mode) ? p.Slot : 0))];
    }
}

/// <summary>One place in a run's order: a mode's run, its repetition, round and slot (<see cref="RepetitionOrder.Places"/>).</summary>
internal sealed record ModePlace(string Mode, int Repetition, int Round, int Slot);
