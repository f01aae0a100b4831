using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Running;
using Xunit.Abstractions;

namespace Harness.LoadTests.Tests;

/// <summary>
/// Simulated A/A runs (one mode listed three times, both stacks, one operation) in the run's order
/// (<see cref="RepetitionOrder"/>) and in the plain mirror it replaced (A B C | C B A | A B C…), judged as the report
/// judges them (<see cref="RatioTest"/> paired by round, <see cref="VerdictFamily"/>), on a machine whose processes
/// are affected by their place non-linearly: by their place in the round, or by load carried over from the process
/// before. What is counted, per listing compared with the first and for the family: runs in which something is marked
/// better or worse though nothing differs. Fixed seeds; docs/results.md, "The order of the rounds, simulated", quotes them.
/// </summary>
public sealed class RepetitionOrderSimulationTests(ITestOutputHelper output)
{
    private const int Seed = 47;
    private const int SimulatedRuns = 1500;

    [Theory]
    [InlineData(4)]
    [InlineData(6)]
    [InlineData(8)]
    public void A_place_in_the_round_that_acts_non_linearly_marks_the_middle_listing_in_the_plain_mirror_and_no_listing_now(int rounds)
    {
        // Arrange: a quiet machine (5 % process noise), on which a round's first and last processes are 10 % slower
        // than its middle one. The plain mirror keeps the 2nd listing in the middle of every round.
        var machine = new Machine(Seed, ProcessNoise: 0.05, RoundEnds: 0.10);

        // Act
        var mirror = Rates(machine, "plain mirror", MirrorOrder, rounds);
        var current = Rates(machine, "current order", CurrentOrder, rounds);

        // Assert
        Assert.True(mirror.Second > mirror.Third + Sampling, $"the plain mirror should mark the middle listing more often: {mirror}");
        Assert.InRange(current.Second, 0, current.Third + Sampling);
        Assert.InRange(current.Third, 0, current.Second + Sampling);
        Assert.InRange(current.Family, 0, VerdictFamily.Alpha);
    }

    [Theory]
    [InlineData(2)]
    [InlineData(6)]
    public void Load_carried_from_one_process_to_the_next_marks_no_listing_more_than_another_and_the_family_keeps_its_5_percent(int rounds)
    {
        // Arrange: a busy machine whose slowness (40 %) carries from one process to the next (ρ = 0.8), so a slow spell
        // spans neighbouring processes, those of a listing back to back with itself among them; 10 % process noise.
        var machine = new Machine(Seed + 1, ProcessNoise: 0.10, LoadNoise: 0.40, Carried: 0.8);

        var mirror = Rates(machine, "plain mirror", MirrorOrder, rounds);
        var current = Rates(machine, "current order", CurrentOrder, rounds);

        Assert.InRange(current.Second, 0, current.Third + Sampling);
        Assert.InRange(current.Third, 0, current.Second + Sampling);
        Assert.InRange(current.Family, 0, VerdictFamily.Alpha);
        if (rounds == 2)
        {
            // Two rounds have no order but the mirror (docs/report.md, "Verdicts").
            Assert.Equal(mirror, current);
        }
    }

    // Three standard errors of the difference between two rates near 5 %, each over SimulatedRuns runs.
    private static double Sampling => 3 * Math.Sqrt(2 * 0.05 * 0.95 / SimulatedRuns);

    private MarkRates Rates(Machine machine, string name, Func<int, IReadOnlyList<int>> order, int rounds)
    {
        var random = new Random(machine.Seed);
        int second = 0, third = 0, family = 0;
        for (var run = 0; run < SimulatedRuns; run++)
        {
            var marked = machine.Run(random, order(rounds));
            second += marked.Contains(2) ? 1 : 0;
            third += marked.Contains(3) ? 1 : 0;
            family += marked.Count > 0 ? 1 : 0;
        }

        var rates = new MarkRates(second / (double)SimulatedRuns, third / (double)SimulatedRuns, family / (double)SimulatedRuns);
        output.WriteLine("{0} rounds, {1}: {2}", rounds, name, rates);
        return rates;
    }

    // The listings' order over the run, as indexes 0 1 2 of the three listings.
    private static IReadOnlyList<int> CurrentOrder(int rounds) =>
        [.. Enumerable.Range(0, rounds).SelectMany(r => RepetitionOrder.Round(3, r))];

    // The order used until 2026-11-28: the list forwards and backwards in turn.
    private static IReadOnlyList<int> MirrorOrder(int rounds) =>
        [.. Enumerable.Range(0, rounds).SelectMany(r => r % 2 == 0 ? new[] { 0, 1, 2 } : [2, 1, 0])];

    private sealed record MarkRates(double Second, double Third, double Family)
    {
        public override string ToString() => $"2nd ÷ 1st marked in {Second:P1} of runs, 3rd ÷ 1st in {Third:P1}, the family in {Family:P1}";
    }

    /// <summary>
    /// The machine an A/A run meets. Each process has its own log-normal noise (<paramref name="ProcessNoise"/>),
    /// shared in part by its figures. The machine's slowness, on the log, is a stationary AR(1) over the run's
    /// processes: <paramref name="Carried"/> × that at the process before plus a fresh part, σ =
    /// <paramref name="LoadNoise"/>. A process at a round's first or last place is slower by
    /// <paramref name="RoundEnds"/> (on the log) than one in its middle: an effect of the place in the round that a
    /// mirror does not cancel. Each process runs both stacks' series; the figures judged: mean, p99 (twice as noisy)
    /// and req/s (= users ÷ mean).
    /// </summary>
    private sealed record Machine(int Seed, double ProcessNoise, double LoadNoise = 0, double Carried = 0, double RoundEnds = 0)
    {
        private const int Stacks = 2;
        private const int Listings = 3;

        /// <summary>One A/A run in <paramref name="places"/>' order: which listings (2, 3) its family marked better or worse.</summary>
        public IReadOnlySet<int> Run(Random random, IReadOnlyList<int> places)
        {
            // [listing, stack, figure] → one observation per round.
            var observed = new List<Observation>[Listings, Stacks, 3];
            foreach (var cell in Enumerable.Range(0, observed.Length))
            {
                observed[cell / (Stacks * 3), cell / 3 % Stacks, cell % 3] = [];
            }

            var load = LoadNoise * Gaussian(random);
            foreach (var (place, listing) in places.Index())
            {
                if (place > 0)
                {
                    load = (Carried * load) + (Math.Sqrt(1 - (Carried * Carried)) * LoadNoise * Gaussian(random));
                }

                var round = (place / Listings) + 1;
                var slow = load + (place % Listings == 1 ? 0 : RoundEnds);
                var process = ProcessNoise * Gaussian(random);
                for (var stack = 0; stack < Stacks; stack++)
                {
                    var mean = 100 * Math.Exp(slow + ((process + (ProcessNoise * Gaussian(random))) / Math.Sqrt(2)));
                    var p99 = 300 * Math.Exp(slow + ((process + (2 * ProcessNoise * Gaussian(random))) / Math.Sqrt(2)));
                    observed[listing, stack, 0].Add(new Observation(round, mean));
                    observed[listing, stack, 1].Add(new Observation(round, p99));
                    observed[listing, stack, 2].Add(new Observation(round, 1_000_000 / mean));
                }
            }

            var members = new List<(int Listing, FamilyMember Member)>();
            for (var listing = 1; listing < Listings; listing++)
            {
                for (var stack = 0; stack < Stacks; stack++)
                {
                    for (var figure = 0; figure < 3; figure++)
                    {
                        var test = RatioTest.Of(observed[listing, stack, figure], observed[0, stack, figure]).Test!;
                        members.Add((listing + 1, new FamilyMember(test, LowerIsBetter: figure != 2)));
                    }
                }
            }

            var verdicts = VerdictFamily.Judge([.. members.Select(m => m.Member)], ModeRatio.Tolerance);
            return members.Where((_, i) => verdicts[i].Verdict is RatioVerdict.Better or RatioVerdict.Worse).Select(m => m.Listing).ToHashSet();
        }

        private static double Gaussian(Random random) =>
            Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
    }
}
