using Harness.LoadTests.Distributed;
using Harness.LoadTests.Engine;
using Harness.LoadTests.Profiles;

namespace Harness.LoadTests.Tests.Distributed;

/// <summary>An agent's share of the load: even, the remainder one each to the lowest indexes, summing to the whole.</summary>
public sealed class AgentShareTests
{
    [Theory]
    [InlineData(10, 3, new[] { 4, 3, 3 })]
    [InlineData(11, 3, new[] { 4, 4, 3 })]
    [InlineData(12, 3, new[] { 4, 4, 4 })]
    [InlineData(2, 3, new[] { 1, 1, 0 })]
    [InlineData(0, 2, new[] { 0, 0 })]
    [InlineData(7, 1, new[] { 7 })]
    public void Users_SplitEvenly_RemainderToTheLowestIndexes(int total, int agents, int[] expected)
    {
        var shares = Enumerable.Range(0, agents).Select(i => AgentShare.Of(total, i, agents)).ToArray();

        Assert.Equal(expected, shares);
    }

    [Fact]
    public void EveryTotal_SumsExactly_AndNoTwoAgentsDifferByMoreThanOne()
    {
        for (var agents = 1; agents <= 9; agents++)
        {
            for (var total = 0; total <= 50; total++)
            {
                var shares = Enumerable.Range(0, agents).Select(i => AgentShare.Of(total, i, agents)).ToList();

                Assert.Equal(total, shares.Sum());
                Assert.True(shares.Max() - shares.Min() <= 1, $"{total} over {agents}: {string.Join(",", shares)}");
                Assert.Equal(shares.OrderByDescending(s => s), shares);
            }
        }
    }

    [Fact]
    public void ClosedProfile_EachStepSplitOnItsOwn_SoEveryStepSumsToTheProfilesUsers()
    {
        // quick: 4 users, +4 every 4 s for 20 s → steps of 4, 8, 12, 16, 20 users.
        var stages = LoadProfile.Load("quick").ToSimulations();

        var shares = Enumerable.Range(0, 3).Select(i => AgentShare.Of(stages, i, 3)).ToList();

        Assert.Equal([[2, 3, 4, 6, 7], [1, 3, 4, 5, 7], [1, 2, 4, 5, 6]], shares.Select(Copies));
        for (var step = 0; step < stages.Count; step++)
        {
            Assert.Equal(Copies(stages)[step], shares.Sum(s => Copies(s)[step]));
            Assert.All(shares, s => Assert.Equal(stages[step].During, s[step].During));
        }
    }

    [Fact]
    public void OpenProfile_RatesSplitTheSameWay_IntervalsAndDurationsKept()
    {
        var stages = LoadProfile.Load("inject").WithPeakRate(10).ToSimulations();

        var shares = Enumerable.Range(0, 4).Select(i => AgentShare.Of(stages, i, 4)).ToList();

        Assert.Equal([[3, 3], [3, 3], [2, 2], [2, 2]], shares.Select(Rates));
        Assert.All(shares, s => Assert.Equal(Intervals(stages), Intervals(s)));
        Assert.All(shares, s => Assert.Equal(stages.Select(x => x.During), s.Select(x => x.During)));
    }

    [Fact]
    public void AnAgentWhoseShareIsZero_StillRunsEveryStage_WithNoLoad()
    {
        LoadSimulation[] stages = [new LoadSimulation.RampingConstant(2, TimeSpan.FromSeconds(5)), new LoadSimulation.Pause(TimeSpan.FromSeconds(2)),
            new LoadSimulation.KeepConstant(1, TimeSpan.FromSeconds(5)), new LoadSimulation.IterationsForConstant(1, 3, TimeSpan.FromSeconds(4))];

        var last = AgentShare.Of(stages, 2, 3);

        Assert.Equal(stages.Select(s => s.During), last.Select(s => s.During));
        Assert.Equal(0, ((LoadSimulation.RampingConstant)last[0]).Copies);
        Assert.IsType<LoadSimulation.Pause>(last[1]);
        Assert.Equal(0, ((LoadSimulation.KeepConstant)last[2]).Copies);
        Assert.IsType<LoadSimulation.Pause>(last[3]);
        Assert.Equal(1, ((LoadSimulation.IterationsForConstant)AgentShare.Of(stages, 0, 3)[3]).Copies);
    }

    private static int[] Copies(IReadOnlyList<LoadSimulation> stages) =>
        [.. stages.Select(s => s switch { LoadSimulation.KeepConstant k => k.Copies, LoadSimulation.RampingConstant r => r.Copies, _ => -1 })];

    private static TimeSpan[] Intervals(IReadOnlyList<LoadSimulation> stages) =>
        [.. stages.Select(s => s switch { LoadSimulation.Inject i => i.Interval, LoadSimulation.RampingInject r => r.Interval, _ => TimeSpan.Zero })];

    private static int[] Rates(IReadOnlyList<LoadSimulation> stages) =>
        [.. stages.Select(s => s switch { LoadSimulation.Inject i => i.Rate, LoadSimulation.RampingInject r => r.Rate, _ => -1 })];
}
