using System.Diagnostics;
using Harness.Contracts;
using Harness.LoadTests.Scenarios;

namespace Harness.LoadTests.Running;

/// <summary>
/// A few lone calls before a series' load: they warm the service's code paths (so modes start equal) and give the
/// ideal lines: the fastest lone call, and for Compute the throughput of one such call per core.
/// </summary>
internal static class Calibration
{
    // The first calls pay for compiling the service's path; only the fastest of the later ones is a lone call's time.
    private const int WarmUpCalls = 5;
    private const int MeasuredCalls = 5;

    public static async Task<(double? LatencyMs, double? Throughput)> MeasureAsync(
        IHarnessClient client, string operation, OperationSettings settings, CancellationToken cancellationToken)
    {
        if (operation == Operations.CallThirdParty)
        {
            // Ideal: every call in parallel, each taking exactly the stub's delay.
            var waves = settings.Parallelism == 0 ? 1 : (int)Math.Ceiling(settings.Fanout / (double)settings.Parallelism);
            try
            {
                await client.CallThirdPartyAsync(settings.Fanout, 1, settings.Style, settings.Parallelism, cancellationToken);
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                // A failing target is measured by the run itself; the warm-up only prepares.
            }

            return (settings.DelayMs * (double)waves, null);
        }

        var fastest = double.MaxValue;
        for (var i = 0; i < WarmUpCalls + MeasuredCalls; i++)
        {
            var stopwatch = Stopwatch.StartNew();
            try
            {
                await client.ComputeAsync(settings.Iterations, cancellationToken);
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                return (null, null);
            }

            if (i >= WarmUpCalls)
            {
                fastest = Math.Min(fastest, stopwatch.Elapsed.TotalMilliseconds);
            }
        }

        return (fastest, Environment.ProcessorCount * 1000 / fastest);
    }
}
