using Harness.Agreements;
using Harness.Scheduling;
using Harness.ServiceOperations;

namespace Harness.Workloads.Tests;

/// <summary><c>ComputeWork__Factor</c> makes Compute run that many times the iterations it was asked for.</summary>
public sealed class ComputeWorkTests
{
    [Theory]
    [InlineData(1.0, 1000, 1000)]
    [InlineData(1.1, 1000, 1100)]
    [InlineData(1.2, 1001, 1201)] // 1201.2, rounded
    [InlineData(1.4, 5, 7)]
    public void Compute_RunsTheRequestedIterationsTimesTheFactor(double factor, int requested, int expected)
    {
        // Arrange
        using var scheduler = WorkSchedulerFactory.Create(new SchedulingOptions { Mode = SchedulingMode.ThreadPool });
        var operations = Operations(new WorkloadLimits(), factor, scheduler);

        // Act
        var result = operations.Compute(requested, CancellationToken.None);

        // Assert: the loop reports the iterations it ran, and still finds 89
        Assert.Equal(expected, result.Iterations);
        Assert.Equal(89, result.Result);
    }

    [Fact]
    public void Scale_BeyondTheLoopsIntCounter_IsCappedNotWrapped()
    {
        var work = new ComputeWorkOptions { Factor = 10.0 };

        Assert.Equal(int.MaxValue, work.Scale(2_000_000_000));
    }

    [Fact]
    public void Compute_ChecksTheLimitOnTheRequestedIterations_BeforeTheFactor()
    {
        // Arrange: 800 requested is within the limit of 1000; 800 × 2 run is not, and is allowed.
        using var scheduler = WorkSchedulerFactory.Create(new SchedulingOptions { Mode = SchedulingMode.ThreadPool });
        var operations = Operations(new WorkloadLimits { MaxIterations = 1000 }, 2.0, scheduler);

        // Act
        var result = operations.Compute(800, CancellationToken.None);

        // Assert
        Assert.Equal(1600, result.Iterations);
        Assert.Throws<WorkloadArgumentException>(() => operations.Compute(1001, CancellationToken.None));
    }

    private static HarnessOperations Operations(WorkloadLimits limits, double factor, IWorkScheduler scheduler) => new(
        limits,
        new ComputeWorkOptions { Factor = factor },
        new ThirdPartyWorkload(new HttpClient(), scheduler, limits),
        new OperationTracker(HarnessOperations.Names));
}
