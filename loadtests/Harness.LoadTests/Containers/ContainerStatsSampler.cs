using Docker.DotNet;
using Docker.DotNet.Models;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Targets;

namespace Harness.LoadTests.Containers;

/// <summary>
/// Reads a container's stats while its series runs and merges them into the series' per-second server values,
/// beside what <c>/metrics</c> gave: CPU used and throttled, memory used and its limit.
/// </summary>
internal sealed class ContainerStatsSampler(IDockerClient docker)
{
    /// <summary>Samples until <paramref name="cancellationToken"/> ends the series; a container that is gone or restarting is read again a second later.</summary>
    public async Task SampleAsync(string containerId, SeriesWatch series, CancellationToken cancellationToken)
    {
        var sink = new StatsSink(series);
        while (!cancellationToken.IsCancellationRequested)
        {
            try
            {
                // The engine streams one sample a second until the container stops.
                await docker.Containers.GetContainerStatsAsync(containerId, new ContainerStatsParameters { Stream = true }, sink, cancellationToken);
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                return;
            }
            catch (Exception ex) when (ex is DockerApiException or HttpRequestException or IOException or OperationCanceledException)
            {
                // The container is gone or restarting: try again shortly.
            }

            try
            {
                await Task.Delay(TimeSpan.FromSeconds(1), cancellationToken);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }
    }

    /// <summary>Turns each stats sample into timeline values, in the series second it was read.</summary>
    private sealed class StatsSink(SeriesWatch series) : IProgress<ContainerStatsResponse>
    {
        public void Report(ContainerStatsResponse value)
        {
            var second = (int)Math.Floor(series.RunClock.Elapsed.TotalSeconds - series.OffsetSeconds);
            if (second < 0 || value.CPUStats?.CPUUsage is null)
            {
                return;
            }

            var sample = new Dictionary<string, double>(StringComparer.Ordinal)
            {
                [ServerMetrics.ContainerCpuSecondsTotal] = value.CPUStats.CPUUsage.TotalUsage / 1e9,
                [ServerMetrics.ContainerCpuPeriodsTotal] = value.CPUStats.ThrottlingData?.Periods ?? 0,
                [ServerMetrics.ContainerThrottledPeriodsTotal] = value.CPUStats.ThrottlingData?.ThrottledPeriods ?? 0,
                [ServerMetrics.ContainerThrottledSecondsTotal] = (value.CPUStats.ThrottlingData?.ThrottledTime ?? 0) / 1e9,
                [ServerMetrics.ContainerMemoryUsageBytes] = value.MemoryStats?.Usage ?? 0,
                [ServerMetrics.ContainerMemoryLimitBytes] = value.MemoryStats?.Limit ?? 0,
            };
            try
            {
                series.Recorder.RecordServer(series.SeriesId, second, sample);
            }
            catch (InvalidOperationException)
            {
                // The series was closed between the sample and this call.
            }
        }
    }
}
