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
            var backward = RepetitionOrder.IsBackward(place / modes.Count);
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
    /// The list <paramref name="repeat"/> times, in pairs of rounds: a round, then the same round backwards. The first
    /// pair is the list as given (A B | B A, A B C | C B A); each later pair starts from the next row of a Williams
    /// square relabelled so that its first row is the list (A B C | C B A, then B C A | A C B, then C A B | B A C;
    /// for two modes A B | B A, then B A | A B), and after as many pairs as there are listings the pairs begin again.
    /// <list type="bullet">
    /// <item>Each pair is mirrored, so over every even number of rounds (every look of <c>--repeat auto</c>) every
    /// listing sits as often at an even place as at an odd one and has the same mean place as every other: a linear
    /// drift over the run (a warming machine, a filling disk) favours none.</item>
    /// <item>Over a whole cycle (2 × listings rounds) each listing holds each place of a round equally often and
    /// follows each other one equally often within rounds (the Williams property: first-order carry-over balanced),
    /// and a drift quadratic in time cancels too. The plain mirror (A B C C B A A B C…) kept the middle listing in
    /// the middle of every round, so an effect of the place in the round that is not linear favoured it in every round,
    /// and the more rounds, the surer its false verdict (RepetitionOrderSimulationTests).</item>
    /// <item>A pair's turn puts its forward round's last listing twice in a row; the rows make that a different listing
    /// in each pair, so each listing is back to back with itself once a cycle, never across two pairs, where the plain
    /// mirror did it to the last listing at every turn and to the first at every other.</item>
    /// </list>
    /// Two rounds have no other order: only the mirror balances a linear drift over two, and there the last listing's two
    /// processes stay back to back in the middle of the run (docs/report.md, "Verdicts"). Each mode's runs are numbered
    /// from 1 in run order; a mode that runs only once gets 0.
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
            order.AddRange(Round(listings.Count, round).Select(i => (listings[i].Mode, listings[i].Slot, round + 1)));
        }

        var runs = order.GroupBy(p => p.Mode).ToDictionary(g => g.Key, g => g.Count());
        var seen = new Dictionary<string, int>();
        return [.. order.Select(p => new ModePlace(
            p.Mode,
            runs[p.Mode] == 1 ? 0 : seen[p.Mode] = seen.GetValueOrDefault(p.Mode) + 1,
            repeat == 1 ? 0 : p.Round,
            listedTwice.Contains(p.Mode) ? p.Slot : 0))];
    }

    /// <summary>Whether round <paramref name="round"/> (from 0) is the backward one of its pair: the stacks and operations reverse there too.</summary>
    public static bool IsBackward(int round) => round % 2 == 1;

    /// <summary>
    /// The listings (indexes into the list) of round <paramref name="round"/>, from 0, of <paramref name="count"/>:
    /// pair round ÷ 2 takes row (round ÷ 2) mod count of the relabelled Williams square, forwards then backwards.
    /// </summary>
    public static IReadOnlyList<int> Round(int count, int round)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(count, 1);
        ArgumentOutOfRangeException.ThrowIfNegative(round);

        // Williams' first row, 0 1 n−1 2 n−2 3…: its cyclic shifts (row r adds r to each entry) are a Latin square in which
        // each listing follows each other one once (n even), or once in the square and once in its mirror (n odd).
        var first = Enumerable.Range(0, count).Select(p => p == 0 ? 0 : p % 2 == 1 ? (p + 1) / 2 : count - (p / 2)).ToArray();
        // Renamed so that row 0 is the list as given: the entry at place p of row 0 names listing p.
        var listingOf = new int[count];
        foreach (var (place, entry) in first.Index())
        {
            listingOf[entry] = place;
        }

        var row = round / 2 % count;
        var forward = first.Select(entry => listingOf[(entry + row) % count]);
        return [.. IsBackward(round) ? forward.Reverse() : forward];
    }
}

/// <summary>One place in a run's order: a mode's run, its repetition, round and slot (<see cref="RepetitionOrder.Places"/>).</summary>
internal sealed record ModePlace(string Mode, int Repetition, int Round, int Slot);
