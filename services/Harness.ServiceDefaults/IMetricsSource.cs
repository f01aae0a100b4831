using Harness.Metrics;

namespace Harness.ServiceDefaults;

/// <summary>A service's own samples for /metrics, beside the shared ones. Register as a singleton.</summary>
public interface IMetricsSource
{
    void Write(PrometheusWriter writer);
}
