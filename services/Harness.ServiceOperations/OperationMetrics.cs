using Harness.Metrics;
using Harness.ServiceDefaults;

namespace Harness.ServiceOperations;

/// <summary>The operations' samples on /metrics: executing now, the peak, completed and failed, per operation.</summary>
public sealed class OperationMetrics(OperationTracker operations) : IMetricsSource
{
    public void Write(PrometheusWriter writer)
    {
        Family(writer, MetricNames.OperationsExecuting, "gauge", "Operations executing now, counted on the thread that runs them.", c => c.Executing);
        Family(writer, MetricNames.OperationsExecutingPeak, "gauge", "Most operations seen executing at once since start.", c => c.Peak);
        Family(writer, MetricNames.OperationsCompletedTotal, "counter", "Operations that returned a result.", c => c.Completed);
        Family(writer, MetricNames.OperationsFailedTotal, "counter", "Operations that ended in an error.", c => c.Failed);
    }

    private void Family(PrometheusWriter writer, string name, string type, string help, Func<OperationTracker.Counter, long> read)
    {
        writer.Family(name, type, help);
        foreach (var (operation, counter) in operations.Counters)
        {
            writer.Sample(read(counter), (MetricNames.OperationLabel, operation));
        }
    }
}
