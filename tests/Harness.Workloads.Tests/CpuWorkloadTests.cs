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

    [Fact]
    public void Run_WithACancelledToken_ThrowsBeforeTheLoop()
    {
        using var cancelled = new CancellationTokenSource();
        cancelled.Cancel();

        // int.MaxValue iterations would take tens of seconds if the token were not looked at.
        Assert.Throws<OperationCanceledException>(() => CpuWorkload.Run(int.MaxValue, cancelled.Token));
    }

    [Fact]
    public void Run_CancelledMidway_StopsWithoutFinishingTheLoop()
    {
        // Arrange
        using var cancellation = new CancellationTokenSource(TimeSpan.FromMilliseconds(50));

        // Act: without the checks this returns a result after tens of seconds.
        var error = Record.Exception(() => CpuWorkload.Run(int.MaxValue, cancellation.Token));

        // Assert
        var cancelled = Assert.IsType<OperationCanceledException>(error);
        Assert.Equal(cancellation.Token, cancelled.CancellationToken);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(CpuWorkload.CancellationCheckInterval)]
    [InlineData(CpuWorkload.CancellationCheckInterval + 1)]
    [InlineData(3 * CpuWorkload.CancellationCheckInterval - 1)]
    public void Run_AnyIterationCount_AcrossChunkBoundaries_ReturnsTheResult(int iterations) =>
        Assert.Equal(89, CpuWorkload.Run(iterations, new CancellationTokenSource().Token).Result);

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
