using System.Diagnostics;
using System.Net;

namespace Harness.LoadTests.Hosting;

/// <summary>Waits for a starting service's <c>/healthz</c> to answer 200, as both local processes and containers do.</summary>
public static class HealthProbe
{
    /// <summary>Polls <c>/healthz</c> under <paramref name="adminAddress"/> every 100 ms.</summary>
    /// <param name="name">The service, for the error message.</param>
    /// <param name="gaveUp">Called before each probe: a reason when the service can no longer become healthy (its process exited), else null.</param>
    /// <returns>How long it took, from the call.</returns>
    /// <exception cref="InvalidOperationException">The service gave up, or was not healthy within <paramref name="timeout"/>.</exception>
    public static async Task<TimeSpan> WaitAsync(
        string name, Uri adminAddress, TimeSpan timeout, Func<string?> gaveUp, CancellationToken cancellationToken)
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(2) };
        var url = new Uri(adminAddress, "/healthz");
        var waited = Stopwatch.StartNew();
        while (waited.Elapsed < timeout)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (gaveUp() is { } reason)
            {
                throw new InvalidOperationException($"{name} {reason}");
            }

            try
            {
                using var response = await http.GetAsync(url, cancellationToken);
                if (response.StatusCode == HttpStatusCode.OK)
                {
                    return waited.Elapsed;
                }
            }
            catch (HttpRequestException)
            {
                // Not listening yet.
            }
            catch (TaskCanceledException) when (!cancellationToken.IsCancellationRequested)
            {
                // The probe itself timed out; try again.
            }

            await Task.Delay(100, cancellationToken);
        }

        throw new InvalidOperationException($"{name} did not answer {url} within {timeout.TotalSeconds:F0} s.");
    }
}
