using Harness.Kubernetes.Tests.Checks;
using Harness.Kubernetes.Tests.Tooling;
using Harness.LoadTests.Reporting.Analysis;

namespace Harness.Kubernetes.Tests;

public sealed class SoakTests
{
    [Fact]
    public void Soak_IsFourHoursOfOneSeries_WithThresholds_AndADeadlineThatFits()
    {
        // Arrange
        var manifests = Manifests.Of("overlays/soak");

        // Act
        var run = Assert.Single(RunnerChecks.Runs(manifests));
        var job = manifests.Job("runner");

        // Assert
        Assert.Empty(run.Errors);
        Assert.Equal(TimeSpan.FromHours(4), run.LoadLength);
        Assert.Equal(1, run.Series);
        // One error threshold, the soak's own: a plain errors<N% beside it would judge the same failures twice.
        Assert.Contains(run.Options!.Thresholds, t => t.Metric == ThresholdMetric.SoakErrorRate);
        Assert.DoesNotContain(run.Options.Thresholds, t => t.Metric is ThresholdMetric.ErrorRate or ThresholdMetric.ErrorCount);
        Assert.Contains(run.Options.Thresholds, t => t.Metric == ThresholdMetric.Percentile && t.Percentile == 99);
        Assert.Equal(0, job.Spec.BackoffLimit);
        Assert.InRange(job.Spec.ActiveDeadlineSeconds!.Value, (long)run.LoadLength.TotalSeconds + 600, (long)run.LoadLength.TotalSeconds + 7200);
    }

    [Fact]
    public void Soak_KeepsOnlyTheSoakedServiceRunning()
    {
        // Arrange
        var manifests = Manifests.Of("overlays/soak");

        // Act
        var running = manifests.Workloads.Where(w => w.Kind == "Deployment" && w.Replicas > 0).Select(w => w.Name).Order(StringComparer.Ordinal);

        // Assert
        Assert.Equal(["soap-threadpool", "stub"], running);
    }

    [Fact]
    public void Soak_LengthChangedWithoutItsDeadline_FailsTheChecks()
    {
        // Arrange: 8 h of load under the 4 h soak's deadline.
        using var overlay = TempOverlay.Over("overlays/soak", """
            patches:
              - patch: |-
                  apiVersion: batch/v1
                  kind: Job
                  metadata:
                    name: runner
                  spec:
                    template:
                      spec:
                        containers:
                          - name: runner
                            env:
                              - name: SOAK_DURATION
                                value: 8h
            """);

        // Act
        var violations = StackChecks.All(overlay.Render());

        // Assert
        Assert.Contains(violations, v => v.Contains("activeDeadlineSeconds 16200 does not fit a load of 08:00:00", StringComparison.Ordinal));
    }
}
