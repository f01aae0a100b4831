namespace Harness.LoadTests.Recording.Tests;

/// <summary>
/// The property distributed runs rest on: a percentile of the merged run is the percentile of the union of every
/// agent's samples, for any number of agents, any split of the requests between them and any shape of latency.
/// Seeded, so a failure is reproducible.
/// </summary>
public sealed class RunMergerPropertyTests
{
    private const string SeriesId = "grpc-compute-iocp";
    private const int Seconds = 4;
    private static readonly double[] Percentiles = [0, 1, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 100];

    public enum Shape
    {
        /// <summary>Every agent draws from the same uniform range.</summary>
        Uniform,

        /// <summary>Log-normal: most requests fast, a long tail.</summary>
        LogNormal,

        /// <summary>Two modes far apart (a cache hit and a miss).</summary>
        Bimodal,

        /// <summary>Agent k is k + 1 times slower than agent 0 and sends fewer requests: where averaging percentiles goes wrong.</summary>
        SkewedAgents,

        /// <summary>Pareto-tailed, up to beyond one hour (clamped values).</summary>
        HeavyTail,
    }

    public static TheoryData<Shape, int, int> Cases()
    {
        var cases = new TheoryData<Shape, int, int>();
        foreach (var shape in Enum.GetValues<Shape>())
        {
            foreach (var (agents, seed) in new[] { (1, 11), (2, 22), (3, 33), (5, 55), (8, 88) })
            {
                cases.Add(shape, agents, seed + (int)shape);
            }
        }

        return cases;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void MergedPercentiles_AreThePercentilesOfTheUnionOfTheAgentsSamples(Shape shape, int agents, int seed)
    {
        // Arrange: each agent's samples, spread over the seconds at random (an agent may have none in a second).
        var random = new Random(seed);
        var samples = Enumerable.Range(0, agents).Select(agent => Draw(random, shape, agent)).ToList();
        var runs = samples.Select((agentSamples, agent) => Run(agent, agentSamples)).ToList();

        // Act
        var merged = RunMerger.Merge(runs).Timelines[SeriesId];

        // Assert: second by second, and over the whole series as the report sums it.
        for (var second = 0; second < Seconds; second++)
        {
            var union = samples.SelectMany(s => s.Where(x => x.Second == second).Select(x => x.Microseconds)).ToList();
            var sample = merged.SingleOrDefault(s => s.Second == second);
            AssertSameDistribution(union, sample?.Latency ?? new LatencyHistogram(), $"{shape}, {agents} agents, seed {seed}, second {second}");
        }

        var all = samples.SelectMany(s => s.Select(x => x.Microseconds)).ToList();
        AssertSameDistribution(all, LatencyHistogram.Merge(merged.Select(s => s.Latency)), $"{shape}, {agents} agents, seed {seed}, whole series");
    }

    [Fact]
    public void SkewedAgents_TheMaxOfTheirPercentiles_IsNotTheMergedPercentile()
    {
        // The method merging tools fall back on (crank takes the max) reports agent 2's median as the run's.
        var random = new Random(7);
        var samples = Enumerable.Range(0, 3).Select(agent => Draw(random, Shape.SkewedAgents, agent)).ToList();
        var merged = LatencyHistogram.Merge(RunMerger.Merge([.. samples.Select((s, agent) => Run(agent, s))]).Timelines[SeriesId].Select(s => s.Latency));

        var maxOfMedians = samples.Max(s => Histogram(s.Select(x => x.Microseconds)).ValueAtPercentile(50));

        Assert.Equal(Histogram(samples.SelectMany(s => s.Select(x => x.Microseconds))).ValueAtPercentile(50), merged.ValueAtPercentile(50));
        Assert.True(maxOfMedians > 1.5 * merged.ValueAtPercentile(50), $"max of medians {maxOfMedians}, merged median {merged.ValueAtPercentile(50)}");
    }

    private static void AssertSameDistribution(List<long> union, LatencyHistogram merged, string where)
    {
        var expected = Histogram(union);
        Assert.True(union.Count == merged.TotalCount, $"{where}: count {merged.TotalCount}, expected {union.Count}");
        Assert.True(expected.Encode() == merged.Encode(), $"{where}: the merged histogram is not the union's");
        if (union.Count == 0)
        {
            return;
        }

        var clamped = union.Select(v => Math.Min(v, LatencyHistogram.HighestTrackableMicroseconds)).Order().ToList();
        Assert.Equal(clamped.Sum(), merged.SumMicroseconds);
        Assert.Equal((clamped[0], clamped[^1]), (merged.MinMicroseconds, merged.MaxMicroseconds));
        foreach (var percentile in Percentiles)
        {
            var value = merged.ValueAtPercentile(percentile);
            Assert.True(expected.ValueAtPercentile(percentile) == value, $"{where}: p{percentile} {value}, the union's histogram says {expected.ValueAtPercentile(percentile)}");

            // Against the sorted union itself: the value at HdrHistogram's rank, to its 3 significant digits.
            var rank = Math.Max(1, (int)Math.Round(percentile / 100 * clamped.Count, MidpointRounding.AwayFromZero));
            var exact = clamped[Math.Min(rank, clamped.Count) - 1];
            Assert.True(value >= exact - 1 && value <= exact + (exact / 1000) + 1, $"{where}: p{percentile} {value}, the sorted union's is {exact}");
        }
    }

    private static List<(int Second, long Microseconds)> Draw(Random random, Shape shape, int agent)
    {
        // Agents send different numbers of requests; sometimes none at all.
        var count = random.Next(5) == 0 ? 0 : random.Next(1, shape == Shape.SkewedAgents ? 3_000 / (agent + 1) : 3_000);
        return [.. Enumerable.Range(0, count).Select(_ => (random.Next(Seconds), Math.Max(1, Value(random, shape, agent))))];
    }

    private static long Value(Random random, Shape shape, int agent) => shape switch
    {
        Shape.Uniform => random.NextInt64(1, 5_000_000),
        Shape.LogNormal => (long)Math.Exp(9 + (1.2 * Gaussian(random))),
        Shape.Bimodal => random.Next(10) < 8 ? random.NextInt64(900, 1_100) : random.NextInt64(900_000, 1_100_000),
        Shape.SkewedAgents => (agent + 1) * random.NextInt64(40_000, 60_000),
        Shape.HeavyTail => (long)Math.Min(2e10, 1_000 / Math.Pow(1 - random.NextDouble(), 1 / 0.6)),
        _ => throw new ArgumentOutOfRangeException(nameof(shape)),
    };

    private static double Gaussian(Random random) =>
        Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());

    private static LatencyHistogram Histogram(IEnumerable<long> values)
    {
        var histogram = new LatencyHistogram();
        foreach (var value in values)
        {
            histogram.Record(value);
        }

        return histogram;
    }

    /// <summary>One agent's run: its samples as the recorder keeps them, compacted as after reading a run folder.</summary>
    private static RunData Run(int agent, List<(int Second, long Microseconds)> samples)
    {
        var timeline = samples.GroupBy(s => s.Second).OrderBy(g => g.Key).Select(g =>
        {
            var latency = Histogram(g.Select(x => x.Microseconds));
            latency.Compact();
            return new SecondSample(g.Key, 1, g.Count(), 0, new Dictionary<string, long>(), latency, null, new Dictionary<string, double>());
        }).ToList();
        return new RunData(
            TestRuns.Manifest($"agent-{agent}", TestRuns.Series(SeriesId)),
            new Dictionary<string, IReadOnlyList<SecondSample>> { [SeriesId] = timeline },
            []);
    }
}
