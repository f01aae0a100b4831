using System.CommandLine;
using Harness.LoadTests.Commands;
using Harness.LoadTests.Common;
using Harness.LoadTests.Running;

namespace Harness.LoadTests.Tests;

/// <summary>The order of a run's modes and the ids of its series: <c>--modes</c> with duplicates, <c>--repeat N</c>.</summary>
public sealed class RunPlanTests
{
    [Fact]
    public void TwoModes_RepeatedFourTimes_GoABBA_BAAB()
    {
        var order = RepetitionOrder.Of(["a", "b"], 4);

        Assert.Equal(["a", "b", "b", "a", "b", "a", "a", "b"], order.Select(o => o.Mode));
    }

    [Fact]
    public void OneModeListedTwice_RepeatedTwice_HasRoundsAndSlots_SoItsTwoListingsCanBeCompared()
    {
        var places = RepetitionOrder.Places(["a", "a"], 2);

        Assert.Equal([(1, 1, 1), (2, 1, 2), (3, 2, 2), (4, 2, 1)], places.Select(p => (p.Repetition, p.Round, p.Slot)));
        Assert.All(RepetitionOrder.Places(["a", "b"], 1), p => Assert.Equal((0, 0), (p.Round, p.Slot)));
    }

    [Theory]
    [InlineData("auto", 8, true)]
    [InlineData("AUTO:4", 4, true)]
    [InlineData("3", 3, false)]
    public void Repeat_IsRoundsOrAutoWithAnEvenMost(string text, int rounds, bool untilSettled)
    {
        Assert.Equal((rounds, untilSettled), RunCommandOptions.ParseRepeat(text));
    }

    [Fact]
    public void ThreeModes_GoInMirroredPairs_EachPairStartingFromTheNextListing()
    {
        var order = RepetitionOrder.Of(["a", "b", "c"], 8);

        Assert.Equal(
            ["abc", "cba", "bca", "acb", "cab", "bac", "abc", "cba"],
            order.Chunk(3).Select(round => string.Concat(round.Select(o => o.Mode))));
    }

    [Theory]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    [InlineData(5)]
    public void TwoRounds_AreThePlainMirror_TheOnlyOrderThatBalancesADriftOverTwo(int modeCount)
    {
        var modes = Enumerable.Range(0, modeCount).Select(i => $"m{i}").ToList();

        var order = RepetitionOrder.Of(modes, 2).Select(o => o.Mode);

        Assert.Equal([.. modes, .. Enumerable.Reverse(modes)], order);
    }

    [Theory]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    [InlineData(5)]
    [InlineData(6)]
    public void OverAWholeCycle_EachListingHoldsEachPlace_FollowsEachOther_AndMeetsItselfOnce_Equally(int count)
    {
        // A cycle is 2 × count rounds.
        var rounds = Enumerable.Range(0, 2 * count).Select(r => RepetitionOrder.Round(count, r)).ToList();
        var run = rounds.SelectMany(r => r).ToList();

        // Every round holds every listing once, and every listing holds every place of a round twice.
        Assert.All(rounds, r => Assert.Equal(Enumerable.Range(0, count), r.Order()));
        Assert.All(Enumerable.Range(0, count), place =>
            Assert.All(Enumerable.Range(0, count), listing => Assert.Equal(2, rounds.Count(r => r[place] == listing))));
        // Within rounds every listing follows every other one twice (first-order carry-over balanced).
        var successions = rounds.SelectMany(r => r.Zip(r.Skip(1))).CountBy(p => p).ToList();
        Assert.Equal(count * (count - 1), successions.Count);
        Assert.All(successions, s => Assert.Equal(2, s.Value));
        // Back to back with itself only at a pair's turn: each listing once, never across two pairs, nor the cycle's end.
        var adjacent = run.Zip(run.Skip(1)).Select((p, i) => (p, i)).Where(x => x.p.First == x.p.Second).ToList();
        Assert.Equal(Enumerable.Range(0, count), adjacent.Select(x => x.p.First).Order());
        Assert.All(adjacent, x => Assert.Equal(count - 1, x.i % (2 * count)));
        Assert.NotEqual(run[^1], run[0]);
        // A drift that is quadratic in time cancels too: every listing's squared places sum alike.
        Assert.Single(Enumerable.Range(0, count).Select(listing => run.Select((l, i) => (l, i)).Where(x => x.l == listing).Sum(x => (long)x.i * x.i)).Distinct());
    }

    [Fact]
    public void AShorterRun_IsTheStartOfALongerOne_SoRepeatAutoStopsAtALookWithTheOrderOfAFixedRun()
    {
        var modes = new[] { "a", "b", "c" };
        var longest = RepetitionOrder.Places(modes, 8);

        foreach (var rounds in new[] { 2, 4, 6 })
        {
            Assert.Equal(longest.Take(rounds * modes.Length).Select(p => (p.Mode, p.Round)), RepetitionOrder.Places(modes, rounds).Select(p => (p.Mode, p.Round)));
        }
    }

    [Theory]
    [InlineData(2, 2)]
    [InlineData(2, 6)]
    [InlineData(3, 2)]
    [InlineData(3, 4)]
    [InlineData(3, 20)]
    [InlineData(4, 8)]
    [InlineData(5, 6)]
    public void EvenRepeats_AreBalanced_EveryModeAsOftenAtEvenAsAtOddPlaces_WithTheSameMeanPlace(int modeCount, int repeat)
    {
        var modes = Enumerable.Range(0, modeCount).Select(i => $"m{i}").ToList();

        var order = RepetitionOrder.Of(modes, repeat);

        Assert.Equal(modeCount * repeat, order.Count);
        foreach (var mode in modes)
        {
            var places = order.Select((o, place) => (o.Mode, place)).Where(p => p.Mode == mode).Select(p => p.place).ToList();
            Assert.Equal(repeat, places.Count);
            Assert.Equal(places.Count(p => p % 2 == 0), places.Count(p => p % 2 == 1));
            Assert.Equal((order.Count - 1) / 2.0, places.Average());
        }
    }

    [Theory]
    [InlineData(2, 1)]
    [InlineData(2, 5)]
    [InlineData(3, 3)]
    public void OddRepeats_AreAsBalancedAsTheyCanBe_OneApartAtMost(int modeCount, int repeat)
    {
        var modes = Enumerable.Range(0, modeCount).Select(i => $"m{i}").ToList();

        var order = RepetitionOrder.Of(modes, repeat);

        foreach (var mode in modes)
        {
            var places = order.Select((o, place) => (o.Mode, place)).Where(p => p.Mode == mode).Select(p => p.place).ToList();
            Assert.InRange(places.Count(p => p % 2 == 0) - places.Count(p => p % 2 == 1), -1, 1);
        }
    }

    [Fact]
    public void Repetitions_AreNumberedInRunOrder_AndAModeRunOnceIsNotNumbered()
    {
        Assert.Equal([("a", 1), ("b", 1), ("b", 2), ("a", 2)], RepetitionOrder.Of(["a", "b"], 2));
        Assert.Equal([("a", 1), ("b", 1), ("b", 2), ("a", 2), ("b", 3), ("a", 3)], RepetitionOrder.Of(["a", "b"], 3));
        Assert.Equal([("a", 0), ("b", 0)], RepetitionOrder.Of(["a", "b"], 1));
    }

    [Fact]
    public void SeriesIds_CarryTheRepetition_OnlyWhenTheModeRunsMoreThanOnce()
    {
        var once = RunPlan.Create(["iocp"], 1, ["grpc"], ["compute"]);
        var twice = RunPlan.Create(["iocp", "custompool"], 2, ["grpc"], ["compute", "call-third-party"]);

        Assert.Equal("grpc-compute-iocp", Assert.Single(Assert.Single(once).Series).Id);
        // The backward round also runs the operations backwards (RunPlan_BalancesTheStacksOrder_AsTheModes).
        Assert.Equal(
            ["grpc-compute-iocp-1", "grpc-call-third-party-iocp-1", "grpc-compute-custompool-1", "grpc-call-third-party-custompool-1",
             "grpc-call-third-party-custompool-2", "grpc-compute-custompool-2", "grpc-call-third-party-iocp-2", "grpc-compute-iocp-2"],
            twice.SelectMany(m => m.Series).Select(s => s.Id));
        Assert.Equal(Enumerable.Range(0, 8), twice.SelectMany(m => m.Series).Select(s => s.Index));
    }

    [Fact]
    public void RunPlan_BalancesTheStacksOrder_AsTheModes()
    {
        var plan = RunPlan.Create(["threadpool", "iocp"], 4, ["soap", "grpc"], ["compute"]);

        // Within each mode's services: S G on forward rounds, G S on backward ones; ids keep their stack and repetition.
        Assert.Equal(
            ["soap grpc", "soap grpc", "grpc soap", "grpc soap", "soap grpc", "soap grpc", "grpc soap", "grpc soap"],
            plan.Select(m => string.Join(' ', m.Series.Select(s => s.Stack))));
        Assert.Equal(
            ["soap-compute-threadpool-1", "grpc-compute-threadpool-1", "soap-compute-iocp-1", "grpc-compute-iocp-1",
             "grpc-compute-iocp-2", "soap-compute-iocp-2", "grpc-compute-threadpool-2", "soap-compute-threadpool-2"],
            plan.Take(4).SelectMany(m => m.Series).Select(s => s.Id));
        foreach (var stack in new[] { "soap", "grpc" })
        {
            Assert.Equal(4, plan.Count(m => m.Series[0].Stack == stack));
        }
    }

    [Fact]
    public void EveryPairOfRounds_IsAMirror_DownToTheSeries_WhicheverListingStartsIt()
    {
        var plan = RunPlan.Create(["a", "b", "c"], 6, ["soap", "grpc"], ["compute", "call-third-party"]);

        // Each round: 3 modes × 2 operations × 2 stacks = 12 series; the backward round runs its forward one's series backwards.
        var rounds = plan.SelectMany(m => m.Series).GroupBy(s => s.Round).Select(g => g.Select(s => $"{s.Mode} {s.Operation} {s.Stack}").ToList()).ToList();
        Assert.Equal(6, rounds.Count);
        Assert.All(rounds, r => Assert.Equal(12, r.Count));
        foreach (var pair in rounds.Chunk(2))
        {
            Assert.Equal(Enumerable.Reverse(pair[0]), pair[1]);
        }

        Assert.Equal(["a", "b", "c"], rounds.Select(r => r[0].Split(' ')[0]).Where((_, i) => i % 2 == 0));
        Assert.Equal(Enumerable.Range(0, 72), plan.SelectMany(m => m.Series).Select(s => s.Index));
    }

    [Fact]
    public void EachOperation_OfAModesPlace_GetsServicesOfItsOwn_InTheOrderOfItsRound()
    {
        var plan = RunPlan.Create(["threadpool", "iocp"], 2, ["soap", "grpc"], ["compute", "call-third-party"]);

        // One ModeRun (services started, then stopped) per operation: no operation runs in a process another just loaded.
        Assert.Equal(8, plan.Count);
        Assert.All(plan, m => Assert.Single(m.Series.Select(s => s.Operation).Distinct()));
        Assert.Equal(
            ["threadpool compute", "threadpool call-third-party", "iocp compute", "iocp call-third-party",
             "iocp call-third-party", "iocp compute", "threadpool call-third-party", "threadpool compute"],
            plan.Select(m => $"{m.Mode} {m.Series[0].Operation}"));
        Assert.Equal(["soap grpc", "grpc soap"], plan.Where(m => m.Mode == "iocp" && m.Series[0].Operation == "compute").Select(m => string.Join(' ', m.Series.Select(s => s.Stack))));
        Assert.Equal(Enumerable.Range(0, 16), plan.SelectMany(m => m.Series).Select(s => s.Index));
    }

    [Fact]
    public void DuplicateModes_AreKept_EachRunNumbered()
    {
        var options = new RunCommandOptions();
        var command = new RootCommand();
        options.AddTo(command);

        var run = options.Bind(command.Parse(["--modes", "threadpool,threadpool", "--stacks", "grpc", "--operations", "compute"]), "harness");
        var plan = RunPlan.Create(run.Modes, run.Repeat, run.Stacks, run.Operations);

        Assert.Equal(["threadpool", "threadpool"], run.Modes);
        Assert.Equal(["grpc-compute-threadpool-1", "grpc-compute-threadpool-2"], plan.SelectMany(m => m.Series).Select(s => s.Id));
    }

    [Fact]
    public void Modes_WithTargets_PickWhichTargetsRun()
    {
        var options = new RunCommandOptions();
        var command = new RootCommand();
        options.AddTo(command);
        string[] targets = ["--target", "grpc=http://a:1,mode=threadpool", "--target", "grpc=http://b:1,mode=iocp", "--target", "soap=http://c:1,mode=iocp"];

        var run = options.Bind(command.Parse([.. targets, "--modes", "iocp"]), "harness");
        var all = options.Bind(command.Parse(targets), "harness");
        var refused = Assert.Throws<UsageException>(() => options.Bind(command.Parse([.. targets, "--modes", "custompool"]), "harness"));

        Assert.Equal(["iocp"], run.Modes);
        Assert.Equal(["http://b:1/", "http://c:1/"], run.Targets.Select(t => t.ServiceAddress.ToString()));
        Assert.Equal(["threadpool", "iocp"], all.Modes);
        Assert.Contains("custompool", refused.Message, StringComparison.Ordinal);
        Assert.Contains("iocp", refused.Message, StringComparison.Ordinal);
    }
}
