using Harness.LoadTests.Clients;
using Harness.LoadTests.Distributed;
using Harness.LoadTests.Distributed.Coordination;

namespace Harness.LoadTests.Tests.Distributed;

public sealed class AgentFeedTests
{
    private static readonly DateTimeOffset T0 = new(2026, 11, 28, 7, 0, 0, TimeSpan.Zero);

    [Fact]
    public void TheCoordinator_JoinsAgentsWithTheSameFeedAtAnyPath_AndRefusesOtherContentOrSeed()
    {
        // Each agent reads its own copy: the same content at another path joins; another content, or another seed, does not.
        var folder = HarnessRun.TempFolder();
        var rows = "id\n" + string.Join('\n', Enumerable.Range(1, 100));
        var (mine, copy, other) = (Path.Combine(folder, "a.csv"), Path.Combine(folder, "b.csv"), Path.Combine(folder, "c.csv"));
        File.WriteAllText(mine, rows);
        File.WriteAllText(copy, rows);
        File.WriteAllText(other, rows + "\n101");
        var state = new CoordinatorState(4, "r", TimeSpan.FromMinutes(1), new ManualClock(T0));
        RegisterRequest Agent(int index, string path, DataFeedOrder order = DataFeedOrder.Circular, ulong seed = 1) =>
            new(index, 4, $"host-{index}", ["grpc-compute-external"], "quick at time scale 1", AgentFeed.Describe(DataFeed.Load(path, order, seed)));

        state.Register(Agent(0, mine));
        state.Register(Agent(1, copy));
        var content = Assert.Throws<CoordinationRefusedException>(() => state.Register(Agent(2, other)));
        var none = Assert.Throws<CoordinationRefusedException>(() => state.Register(Agent(2, mine) with { Feed = null }));

        Assert.Contains("host-2 has --data-feed of 101 rows", content.Message, StringComparison.Ordinal);
        Assert.Contains("the first agent (host-0) --data-feed of 100 rows", content.Message, StringComparison.Ordinal);
        Assert.Contains("host-2 has no --data-feed", none.Message, StringComparison.Ordinal);
        var random = new CoordinatorState(2, "r", TimeSpan.FromMinutes(1), new ManualClock(T0));
        random.Register(Agent(0, mine, DataFeedOrder.Shuffle, seed: 7) with { Count = 2 });
        var seed = Assert.Throws<CoordinationRefusedException>(() => random.Register(Agent(1, copy, DataFeedOrder.Shuffle, seed: 8) with { Count = 2 }));
        Assert.Contains("shuffle with --data-feed-seed 8, the first agent (host-0)", seed.Message, StringComparison.Ordinal);
        Assert.Contains("the same --data-feed-seed", seed.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(DataFeedOrder.Circular)]
    [InlineData(DataFeedOrder.Shuffle)]
    public void AgentsSharingAFeed_TakeEveryRowOncePerPass_AmongThemAll(DataFeedOrder order)
    {
        // 3 agents, 12 rows, 4 calls each per pass, two passes: together every row once a pass, as one runner would.
        var path = Path.Combine(HarnessRun.TempFolder(), "f.csv");
        File.WriteAllText(path, "n\n" + string.Join('\n', Enumerable.Range(0, 12)));
        var agents = Enumerable.Range(0, 3).Select(i =>
        {
            var feed = DataFeed.Load(path, order, seed: 5);
            feed.ShareAmong(i, 3);
            return CallTemplate.Parse("{{feed.n}}", "--data", feed);
        }).ToList();

        var passes = Enumerable.Range(0, 2)
            .Select(_ => agents.SelectMany(a => Enumerable.Range(0, 4).Select(_ => int.Parse(a.Render(1, 1, Random.Shared), System.Globalization.CultureInfo.InvariantCulture))).ToList())
            .ToList();

        Assert.All(passes, pass => Assert.Equal(Enumerable.Range(0, 12), pass.Order()));
    }
}
