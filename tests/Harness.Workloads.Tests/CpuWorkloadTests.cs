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
        // Arrange: warm up so that tiered compilation does not skew the first measurement.
        CpuWorkload.Run(200_000);

        // Act
        var small = CpuWorkload.Run(1_000_000);
        var large = CpuWorkload.Run(8_000_000);

        // Assert: eight times the work is clearly slower; the loop is not optimised away.
        Assert.True(large.Elapsed > small.Elapsed * 3, $"1M took {small.Elapsed}, 8M took {large.Elapsed}");
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
