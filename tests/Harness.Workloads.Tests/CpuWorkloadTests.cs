namespace Harness.Workloads.Tests;

public sealed class CpuWorkloadTests
{
    [Fact]
    public void Run_ReturnsLargestFibonacciNumberUpTo100_AndTheThreadThatRanIt()
    {
        // Act
        var result = CpuWorkload.Run(1000);

        // Assert
        Assert.Equal(89, result.Result);
        Assert.Equal(Environment.CurrentManagedThreadId, result.ThreadId);
    }

    [Fact]
    public void Run_TakesTimeInProportionToIterations()
    {
        // Arrange: tiered compilation may still run the first calls unoptimised (seen: 1M in 109 ms, then 8M in
        // 170 ms), so alternate the two sizes and compare the fastest of each.
        CpuWorkload.Run(200_000);
        var small = TimeSpan.MaxValue;
        var large = TimeSpan.MaxValue;

        // Act
        for (var round = 0; round < 5; round++)
        {
            small = TimeSpan.FromTicks(Math.Min(small.Ticks, CpuWorkload.Run(1_000_000).Elapsed.Ticks));
            large = TimeSpan.FromTicks(Math.Min(large.Ticks, CpuWorkload.Run(8_000_000).Elapsed.Ticks));
        }

        // Assert: eight times the work is clearly slower; the loop is not optimised away.
        Assert.True(large > small * 3, $"1M took {small}, 8M took {large}");
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-5)]
    public void Run_RejectsFewerThanOneIteration(int iterations) =>
        Assert.Throws<ArgumentOutOfRangeException>(() => CpuWorkload.Run(iterations));

    [Theory]
    [InlineData(1, 1)]
    [InlineData(2, 2)]
    [InlineData(100, 89)]
    [InlineData(144, 144)]
    public void LargestFibonacciAtMost_FindsTheLargestNotAboveTheCeiling(int ceiling, long expected) =>
        Assert.Equal(expected, CpuWorkload.LargestFibonacciAtMost(ceiling));
}
