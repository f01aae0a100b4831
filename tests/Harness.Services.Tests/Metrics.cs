using System.Globalization;
using Harness.LoadTests.Hosting;

namespace Harness.Services.Tests;

/// <summary>Reads one sample from a service's /metrics.</summary>
internal static class Metrics
{
    /// <param name="sample">e.g. <c>harness_operations_executing_peak{operation="compute"}</c>.</param>
    public static Task<double> ReadAsync(this LocalProcess service, string sample) => ReadAsync(service.AdminAddress, sample);

    /// <inheritdoc cref="ReadAsync(LocalProcess, string)"/>
    public static Task<double> ReadAsync(this InProcessHarness harness, string sample) => ReadAsync(harness.AdminAddress, sample);

    /// <summary>The same from the dedicated thread's /metrics (<c>Listen__MetricsPort</c>), which a busy ThreadPool cannot delay.</summary>
    public static Task<double> ReadDedicatedAsync(this LocalProcess service, string sample) => ReadAsync(service.MetricsAddress, sample);

    /// <summary>One sample of a /metrics page; throws, showing the page, when it has none.</summary>
    public static double Sample(string text, string sample)
    {
        foreach (var line in text.Split('\n'))
        {
            if (line.StartsWith(sample + " ", StringComparison.Ordinal))
            {
                return double.Parse(line.AsSpan(sample.Length + 1), CultureInfo.InvariantCulture);
            }
        }

        throw new InvalidOperationException($"/metrics has no sample '{sample}':\n{text}");
    }

    private static async Task<double> ReadAsync(Uri address, string sample)
    {
        using var http = new HttpClient();
        return Sample(await http.GetStringAsync(new Uri(address, "/metrics")), sample);
    }
}
