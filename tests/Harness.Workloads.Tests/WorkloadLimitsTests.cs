using Harness.Agreements;

namespace Harness.Workloads.Tests;

public sealed class WorkloadLimitsTests
{
    private readonly WorkloadLimits _limits = new() { MaxIterations = 1000, MaxFanout = 8, MaxDelayMs = 5000 };

    [Theory]
    [InlineData(0)]
    [InlineData(1001)]
    public void ValidateIterations_OutOfRange_NamesTheLimitAndItsVariable(int iterations)
    {
        var ex = Assert.Throws<WorkloadArgumentException>(() => _limits.ValidateIterations(iterations));

        Assert.Contains("between 1 and 1000", ex.Message, StringComparison.Ordinal);
        Assert.Contains("Workloads__MaxIterations", ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(0, 10, 0, "fanout must be between 1 and 8")]
    [InlineData(9, 10, 0, "fanout must be between 1 and 8")]
    [InlineData(1, -1, 0, "delayMs must be between 0 and 5000")]
    [InlineData(1, 5001, 0, "delayMs must be between 0 and 5000")]
    [InlineData(2, 10, 9, "parallelism must be between 0 (= fanout) and 8")]
    public void Validate_OutOfRange_NamesTheLimit(int fanout, int delayMs, int parallelism, string expected)
    {
        var request = new ThirdPartyCallRequest(fanout, delayMs, CallStyle.Async, parallelism);

        var ex = Assert.Throws<WorkloadArgumentException>(() => _limits.Validate(request));

        Assert.StartsWith(expected, ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_AcceptsTheLimitsThemselves() =>
        _limits.Validate(new ThirdPartyCallRequest(8, 5000, CallStyle.Blocking, 8));

    [Theory]
    [InlineData(4, 0, 4)]
    [InlineData(4, 2, 2)]
    [InlineData(4, 8, 4)]
    public void EffectiveParallelism_IsTheFanoutWhenUnsetAndNeverAboveIt(int fanout, int parallelism, int expected) =>
        Assert.Equal(expected, new ThirdPartyCallRequest(fanout, 0, CallStyle.Async, parallelism).EffectiveParallelism);
}
