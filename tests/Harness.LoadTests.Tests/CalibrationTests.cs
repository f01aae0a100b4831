using Harness.LoadTests.Running;
using Harness.LoadTests.Scenarios;

namespace Harness.LoadTests.Tests;

/// <summary>The ideal lines: by construction for CallThirdParty, lone calls that have settled for Compute.</summary>
public sealed class CalibrationTests
{
    [Fact]
    public void StableMedian_SettlesOnlyOnceTheWindowBeforeIsWarmToo()
    {
        // Arrange: cold calls, then the service's code is recompiled and calls become ten times faster.
        var median = new StableMedian();
        double[] cold = [5.0, 5.1, 4.9, 5.0, 5.2];
        double[] warm = [0.50, 0.52, 0.49, 0.51, 0.50, 0.50, 0.51, 0.49, 0.52, 0.50];
        var settledAt = new List<int>();

        // Act
        foreach (var value in cold.Concat(warm))
        {
            if (median.Add(value))
            {
                settledAt.Add(median.Count);
            }
        }

        // Assert: not across the drop; once most of the window before it holds warm calls too (value 13).
        Assert.Equal(13, settledAt[0]);
        Assert.True(median.IsStable);
        Assert.Equal(0.50, median.Median);
    }

    [Fact]
    public void StableMedian_OneOutlierDoesNotMoveIt()
    {
        var median = new StableMedian();
        var settled = false;

        foreach (var value in (double[])[1.0, 1.01, 0.99, 1.0, 1.02, 1.0, 40.0, 0.99, 1.01, 1.0])
        {
            settled = median.Add(value);
        }

        Assert.True(settled);
        Assert.Equal(1.0, median.Median);
    }

    [Fact]
    public void StableMedian_FewerThanTwoWindows_IsNotStable()
    {
        var median = new StableMedian();

        foreach (var value in Enumerable.Repeat(1.0, (StableMedian.Window * 2) - 1))
        {
            Assert.False(median.Add(value));
        }

        Assert.False(median.IsStable);
    }

    [Theory]
    [InlineData(4, 0, 300, 300.0, "by construction: 1 wave of calls in parallel, each the stub's 300 ms")]
    [InlineData(8, 3, 250, 750.0, "by construction: 3 waves of calls in parallel, each the stub's 250 ms")]
    public void CallThirdParty_IdealIsTheStubsDelayPerWave(int fanout, int parallelism, int delayMs, double ideal, string method)
    {
        var settings = OperationSettings.Default with { Fanout = fanout, Parallelism = parallelism, DelayMs = delayMs };

        var known = Calibration.ByConstruction(Operations.CallThirdParty, settings);

        Assert.Equal(new Ideal(ideal, null, method), known);
    }

    [Fact]
    public void Compute_IdealIsNotKnownBeforeTheLoad() =>
        Assert.Null(Calibration.ByConstruction(Operations.Compute, OperationSettings.Default));
}
