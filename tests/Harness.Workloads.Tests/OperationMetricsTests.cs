using Harness.Metrics;
using Harness.ServiceOperations;

namespace Harness.Workloads.Tests;

public sealed class OperationMetricsTests
{
    [Fact]
    public void Write_PublishesEveryFamilyForEveryOperation()
    {
        // Arrange: one Compute running, one CallThirdParty failed.
        var tracker = new OperationTracker(HarnessOperations.Names);
        using var running = tracker.Begin(HarnessOperations.ComputeName);
        var failed = tracker.Begin(HarnessOperations.CallThirdPartyName);
        failed.Fail();
        failed.Dispose();
        var writer = new PrometheusWriter();

        // Act
        new OperationMetrics(tracker).Write(writer);
        var text = writer.ToString();

        // Assert
        Assert.Contains("# TYPE harness_operations_executing gauge\n", text, StringComparison.Ordinal);
        Assert.Contains("harness_operations_executing{operation=\"compute\"} 1\n", text, StringComparison.Ordinal);
        Assert.Contains("harness_operations_executing_peak{operation=\"call_third_party\"} 1\n", text, StringComparison.Ordinal);
        Assert.Contains("harness_operations_completed_total{operation=\"call_third_party\"} 0\n", text, StringComparison.Ordinal);
        Assert.Contains("harness_operations_failed_total{operation=\"call_third_party\"} 1\n", text, StringComparison.Ordinal);
    }
}
